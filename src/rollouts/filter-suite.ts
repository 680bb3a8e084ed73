import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { InvalidArgumentError } from '../errors.js';
import { writeFileAtomic } from '../pipeline/package/suite-staging.js';
import { stableJson } from '../pipeline/write/stable-json.js';
import { suiteFileSchema, taskFileSchema, type RolloutVerdict } from '../tasks/task-schema.js';
import type { TaskTally } from './run-rollouts.js';

/**
 * Which pass rates keep a task. `mixed` (the default): at least one solved and one failed attempt.
 * `lo..hi`: solved / scored attempts within [lo, hi].
 */
export interface PassRateBand {
  label: string;
  min: number;
  max: number;
  mixed: boolean;
}

export const MIXED_BAND: PassRateBand = Object.freeze({ label: 'mixed', min: 0, max: 1, mixed: true });

/** `mixed` or `lo..hi` (0 ≤ lo ≤ hi ≤ 1); throws `InvalidArgumentError` naming the flag otherwise. */
export function parsePassRateBand(text: string): PassRateBand {
  const trimmed = text.trim();
  if (trimmed === 'mixed') return MIXED_BAND;
  const match = /^(\d*\.?\d+)\.\.(\d*\.?\d+)$/.exec(trimmed);
  const min = Number(match?.[1]);
  const max = Number(match?.[2]);
  if (!match || !(min >= 0 && max <= 1 && min <= max)) {
    throw new InvalidArgumentError('--keep-pass-rate', `"${text}" is not a band: write "mixed" (at least one pass and one fail) or "lo..hi" with 0 <= lo <= hi <= 1, e.g. 0.1..0.9`);
  }
  return { label: `${min}..${max}`, min, max, mixed: false };
}

/** The verdict of one task from its attempts. */
export function judgeTask(tally: TaskTally, band: PassRateBand, agent: { name: string; model: string | null }, runId: string): RolloutVerdict {
  const scored = tally.solved + tally.failed;
  const base = { agent: agent.name, model: agent.model, attempts: tally.episodes, solved: tally.solved, failed: tally.failed, infra: tally.infra, band: band.label, runId };
  if (scored === 0) {
    return { ...base, passRate: null, verdict: 'unscored', reason: `no attempt was scored (${tally.infra} infrastructure errors); left as it was` };
  }
  const passRate = tally.solved / scored;
  const rate = passRate.toFixed(2);
  if (band.mixed) {
    if (tally.solved === 0) return { ...base, passRate, verdict: 'retired', reason: `all-fail: 0 of ${scored} attempts solved it` };
    if (tally.failed === 0) return { ...base, passRate, verdict: 'retired', reason: `all-pass: ${scored} of ${scored} attempts solved it` };
    return { ...base, passRate, verdict: 'kept', reason: `mixed: ${tally.solved} of ${scored} attempts solved it` };
  }
  if (passRate < band.min) return { ...base, passRate, verdict: 'retired', reason: `too-hard: pass rate ${rate} < ${band.min}` };
  if (passRate > band.max) return { ...base, passRate, verdict: 'retired', reason: `too-easy: pass rate ${rate} > ${band.max}` };
  return { ...base, passRate, verdict: 'kept', reason: `pass rate ${rate} within ${band.label}` };
}

export interface FilterOutcome {
  kept: string[];
  retired: string[];
  /** Retired before, kept now. */
  readmitted: string[];
  /** Served before, retired now. */
  newlyRetired: string[];
  unscored: string[];
}

/**
 * Writes the verdicts into a suite on disk: each task.json gets `difficulty` (the pass rate) and
 * `rollouts` (the verdict); suite.json moves retired tasks from `tasks` to `retired` and re-admitted
 * ones back (served tasks keep their order, re-admitted ones follow); funnel.json gets a `rollouts`
 * stage with every drop and its reason. Every file is replaced atomically, task files first, so a
 * crash leaves each file whole and the suite loadable. Tasks without a verdict are left as they were.
 */
export async function applyVerdicts(suiteDir: string, verdicts: ReadonlyMap<string, RolloutVerdict>): Promise<FilterOutcome> {
  const suitePath = path.join(suiteDir, 'suite.json');
  const suiteRaw = JSON.parse(await readFile(suitePath, 'utf8')) as Record<string, unknown>;
  const suite = suiteFileSchema.parse(suiteRaw);

  for (const [name, verdict] of verdicts) {
    const taskPath = path.join(suiteDir, name, 'task.json');
    const raw = JSON.parse(await readFile(taskPath, 'utf8')) as Record<string, unknown>;
    const next = { ...raw, rollouts: verdict, ...(verdict.passRate !== null ? { difficulty: verdict.passRate } : {}) };
    taskFileSchema.parse(next); // never write a task file the loader would refuse
    await writeFileAtomic(taskPath, Buffer.from(stableJson(next)));
  }

  const verdictOf = (name: string): RolloutVerdict['verdict'] | undefined => verdicts.get(name)?.verdict;
  const served = suite.tasks.filter((n) => verdictOf(n) !== 'retired');
  const readmitted = suite.retired.filter((n) => verdictOf(n) === 'kept');
  const newlyRetired = suite.tasks.filter((n) => verdictOf(n) === 'retired');
  const retired = [...suite.retired.filter((n) => verdictOf(n) !== 'kept'), ...newlyRetired];
  await writeFileAtomic(suitePath, Buffer.from(stableJson({ ...suiteRaw, tasks: [...served, ...readmitted], retired })));

  const outcome: FilterOutcome = {
    kept: [...verdicts].filter(([, v]) => v.verdict === 'kept').map(([n]) => n).sort(),
    retired: [...verdicts].filter(([, v]) => v.verdict === 'retired').map(([n]) => n).sort(),
    readmitted,
    newlyRetired,
    unscored: [...verdicts].filter(([, v]) => v.verdict === 'unscored').map(([n]) => n).sort(),
  };

  const funnelPath = path.join(suiteDir, 'funnel.json');
  const funnel = await readFile(funnelPath, 'utf8').then((t) => JSON.parse(t) as Record<string, unknown>, () => ({ schemaVersion: 1, suite: suite.name }));
  const first = verdicts.values().next().value;
  const drops = [...verdicts]
    .filter(([, v]) => v.verdict !== 'kept')
    .map(([name, v]) => ({ stage: 'rollouts', task: name, code: v.verdict === 'unscored' ? 'unscored' : (v.reason.split(':')[0] ?? 'retired'), reason: v.reason }))
    .sort((a, b) => (a.task < b.task ? -1 : 1));
  const dropCounts: Record<string, number> = {};
  for (const d of drops) dropCounts[`rollouts:${d.code}`] = (dropCounts[`rollouts:${d.code}`] ?? 0) + 1;
  const rollouts = {
    agent: first?.agent ?? null,
    model: first?.model ?? null,
    band: first?.band ?? null,
    runId: first?.runId ?? null,
    attempted: verdicts.size,
    kept: outcome.kept.length,
    readmitted: outcome.readmitted,
    newlyRetired: outcome.newlyRetired,
    dropCounts,
    drops,
  };
  await writeFileAtomic(funnelPath, Buffer.from(stableJson({ ...funnel, rollouts })));
  return outcome;
}
