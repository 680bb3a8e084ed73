import { describe, expect, it } from 'vitest';
import { formatFunnelSummary, mergeRecordTimings, type BuildTimings, type FunnelReport, type RecordTimings } from '../../src/pipeline/report/funnel-report.js';

const report: FunnelReport = {
  schemaVersion: 1,
  suite: 'mini',
  source: { repo: 'local', revision: 'working-tree' },
  seed: 1,
  funnel: { units: 3, candidates: 3, recorded: 2, written: 2, gated: 2, drops: [] },
  dropCounts: {},
  tasks: [],
};

const first: RecordTimings = {
  setupMs: 1000,
  traceMs: { pytest: 4000, doctest: 500 },
  candidates: [
    { unitId: 'm.b', recordMs: 2000, mutateMs: 9000, searchMs: 7000 },
    { unitId: 'm.a', recordMs: 1000, mutateMs: 1000, searchMs: 0 },
  ],
};

describe('record timings', () => {
  it('merges a second record run: setup and tracing summed, a candidate in both summed, sorted by unit', () => {
    const merged = mergeRecordTimings(first, {
      setupMs: 500,
      traceMs: { pytest: 1000 },
      candidates: [
        { unitId: 'm.b', recordMs: 100, mutateMs: 200, searchMs: 50 },
        { unitId: 'm.c', recordMs: 300, mutateMs: 0, searchMs: 0 },
      ],
    });
    expect(merged.setupMs).toBe(1500);
    expect(merged.traceMs).toEqual({ pytest: 5000, doctest: 500 });
    expect(merged.candidates).toEqual([
      { unitId: 'm.a', recordMs: 1000, mutateMs: 1000, searchMs: 0 },
      { unitId: 'm.b', recordMs: 2100, mutateMs: 9200, searchMs: 7050 },
      { unitId: 'm.c', recordMs: 300, mutateMs: 0, searchMs: 0 },
    ]);
    expect(mergeRecordTimings(undefined, first)).toBe(first);
  });

  it('the build summary says where the record time went, the slowest candidate first, and tasks per core-minute', () => {
    const timings: BuildTimings = { totalMs: 60_000, stageMs: { record: 20_000 }, tasksPerMinute: 2, cores: 2, tasksPerCoreMinute: 1, record: first };
    const text = formatFunnelSummary(report, timings);
    expect(text).toContain('record: setup 1.0 s, tracing the repository 4.5 s (pytest 4.0 s, doctest 0.5 s), 2 candidates 13.0 s (recording 3.0 s, mutation testing 10.0 s of which search 7.0 s)');
    expect(text).toMatch(/slowest: m\.b 11\.0 s \(record 2\.0 s, mutate 9\.0 s, search 7\.0 s\); m\.a 2\.0 s/);
    expect(text).toContain('throughput: 1.00 gated tasks per core-minute (2 cores), 2.00 per minute');
  });

  it('a summary without record detail has no record line', () => {
    const text = formatFunnelSummary(report, { totalMs: 1000, stageMs: {}, tasksPerMinute: 0, cores: 2, tasksPerCoreMinute: 0 });
    expect(text).not.toContain('record: setup');
    expect(text).toContain('0.00 gated tasks per core-minute');
  });
});
