import type { RolloutProgress, RolloutSummary } from './run-rollouts.js';

/**
 * A progress display on stderr: one line redrawn in place on a terminal, a line per finished group
 * otherwise (logs and CI keep every line).
 */
export function createProgressPrinter(stream: NodeJS.WriteStream | { isTTY?: boolean; write(text: string): boolean }): {
  update(progress: RolloutProgress): void;
  done(): void;
} {
  const tty = Boolean(stream.isTTY);
  let drawn = false;
  return {
    update(p) {
      const line = formatProgress(p);
      if (tty) {
        stream.write(`\r${line}\x1b[K`);
        drawn = true;
      } else {
        stream.write(`${line}\n`);
      }
    },
    done() {
      if (tty && drawn) stream.write('\n');
    },
  };
}

export function formatProgress(p: RolloutProgress): string {
  const width = 24;
  const filled = p.groups > 0 ? Math.round((p.groupsDone / p.groups) * width) : width;
  const bar = `${'#'.repeat(filled)}${'-'.repeat(width - filled)}`;
  const minutes = p.elapsedMs / 60_000;
  const rate = minutes > 0 ? (p.episodesDone / minutes).toFixed(1) : '0.0';
  const solvedPct = p.episodesDone > 0 ? Math.round((p.solved / p.episodesDone) * 100) : 0;
  return `[${bar}] ${p.groupsDone}/${p.groups} groups · ${p.episodesDone} episodes · ${rate} episodes/min · solved ${solvedPct}% · ${(p.elapsedMs / 1000).toFixed(0)} s`;
}

/** The end-of-run table: one row per task, then totals and the throughput line. */
export function formatRolloutSummary(summary: RolloutSummary): string {
  const header = ['task', 'episodes', 'solved', 'failed', 'infra', 'agent errors', 'mean reward'];
  const rows = summary.tasks.map((t) => [
    t.task,
    String(t.episodes),
    String(t.solved),
    String(t.failed),
    String(t.infra),
    String(t.agentErrors),
    (t.episodes > 0 ? t.rewardSum / t.episodes : 0).toFixed(3),
  ]);
  const sum = (pick: (t: RolloutSummary['tasks'][number]) => number): number => summary.tasks.reduce((a, t) => a + pick(t), 0);
  const rewardSum = sum((t) => t.rewardSum);
  rows.push([
    'all',
    String(summary.episodes),
    String(summary.solved),
    String(sum((t) => t.failed)),
    String(summary.infra),
    String(sum((t) => t.agentErrors)),
    (summary.episodes > 0 ? rewardSum / summary.episodes : 0).toFixed(3),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  const out = [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
  for (const f of summary.groupFailures) out.push(`group ${f.index} (${f.task}) failed: ${f.error}`);
  out.push(
    `${summary.episodes} episodes in ${summary.groupsRun} groups in ${(summary.wallMs / 1000).toFixed(1)} s: ${summary.episodesPerMinute.toFixed(1)} episodes per minute`,
  );
  return out.join('\n');
}
