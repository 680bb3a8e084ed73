import { runtimeSpecFields } from '../tasks/task-runtime.js';
import { randomBytes } from 'node:crypto';
import { readdir, readFile, lstat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { Logger } from '../logging.js';
import type { FileEntry, Sandbox, SandboxProvider, SandboxResources } from '../sandbox/types.js';
import { listWorkspaceFiles } from '../tasks/list-workspace-files.js';
import type { LoadedTask } from '../tasks/types.js';
import { filterReadout, normaliseWorkspacePath, summariseDropped, type ReadoutFilterLimits } from './readout-filter.js';
import type { Scorer, ScoreRequest, ScoreResult, TestOutcome, TestStatus } from './types.js';

/** Where the hidden tests go inside the scoring sandbox: root-only. */
export const HIDDEN_DIR_IN_SANDBOX = '/var/lib/codemidas/hidden';

const AGENT_UID = 1000;
const AGENT_GID = 1000;
const RESULT_PREFIX = 'CODEMIDAS-JUDGE ';

/** Where a series of scoring runs keeps its trees (root-only), one folder per distinct read-out. */
const SERIES_DIR_IN_SANDBOX = '/var/lib/codemidas/series';

/**
 * A whole series in one engine exec (each exec is ~35 ms of the engine's time and CPU): before each
 * run, the workdir emptied and filled from its tree's copy (owners and modes kept) and /tmp emptied,
 * then the judge with that run's config (a root-only file) on stdin. `$1` the workdir, `$2` the
 * series folder, `$3` the runs' tree numbers (`0 0 0 0 1 1`: run i judges copy `$2/<k>` with config
 * `$2/run-<i>.json`), the judge's argv after. A judge that fails goes on to the next run (its missing
 * result says so); a copy that cannot be made ends the series.
 */
const SERIES_SCRIPT = [
  'set -eu',
  'w=$1; series=$2; trees=$3; shift 3',
  'i=0',
  'for k in $trees; do',
  '  find "$w" -mindepth 1 -delete',
  '  cp -a "$series/$k"/. "$w"/',
  '  find /tmp -mindepth 1 -delete 2>/dev/null || true',
  '  "$@" < "$series/run-$i.json" || true',
  '  i=$((i + 1))',
  'done',
].join('\n');

/**
 * A language's judge as the scorer runs it: as root in the fresh scoring sandbox, a JSON config on
 * stdin, one result line on stdout (`CODEMIDAS-JUDGE <nonce> <json>`: tests, tampered,
 * budgetExhausted, detail). The judge holds the expected values; the agent's code runs only in
 * subject processes it starts as the agent user (DESIGN.md, Scoring 3).
 */
export interface JudgeCommand {
  /** The judge's argv. */
  readonly argv: readonly string[];
  /**
   * The config fields that come from the task's tests (what to judge and its limits), beside the
   * generic ones the scorer adds: workspace, hiddenDir, budgetMs, uid, gid, dropPrivileges, nonce.
   * Throws for a task whose tests are another runner's (scored as INFRA_ERROR: a task handed to
   * the wrong scorer is never the agent's doing).
   */
  config(task: LoadedTask): Record<string, unknown>;
}

export interface SandboxScorerLimits {
  /** Read-out caps (per file, total). Defaults: 1 MiB, 16 MiB. */
  readout: Partial<ReadoutFilterLimits>;
  /** Resources of the scoring sandbox. Default 1 GiB, 1 CPU, 256 processes. */
  resources: SandboxResources;
  /** Time the judge gets past the task's limit to clean up and print. Default 10000. */
  judgeGraceMs: number;
  /** Cap on the judge's stdout. Default 8 MiB. */
  maxJudgeOutputBytes: number;
  /** Added to the sandbox's expiry so the reaper leaves it alone while in use. Default 300000. */
  sandboxExpiryMarginMs: number;
  /**
   * Scoring runs per Reward, each in a new sandbox, while runs fail for causes outside the agent's
   * control (sandbox killed, engine errors, no usable judge output); then INFRA_ERROR. Default 2.
   */
  attempts: number;
}

export const DEFAULT_SANDBOX_SCORER_LIMITS: Readonly<SandboxScorerLimits> = Object.freeze({
  readout: {},
  resources: { memoryBytes: 1024 * 1024 * 1024, cpus: 1, pids: 256 },
  judgeGraceMs: 10_000,
  maxJudgeOutputBytes: 8 * 1024 * 1024,
  sandboxExpiryMarginMs: 300_000,
  attempts: 2,
});

export interface SandboxScorerOptions {
  provider: SandboxProvider;
  logger: Logger;
  /** The task language's judge. */
  judge: JudgeCommand;
  limits?: Partial<SandboxScorerLimits>;
}

/** What judge.py prints (after its prefix and nonce). */
interface JudgeOutput {
  tests: TestOutcome[];
  tampered: boolean;
  budgetExhausted: boolean;
  detail: string;
  timings?: Record<string, number>;
}

/** What a scoring run needs besides its sandbox. */
interface Prepared {
  task: LoadedTask;
  log: Logger;
  /** The tree scored (the read-out filtered and laid over the original workspace). */
  workspaceTree: FileEntry[];
  hiddenTree: FileEntry[];
  judgeConfig: Record<string, unknown>;
  droppedNote: string;
  timeoutMs: number;
}

/** The judge's result could not be used: an infra error, never the agent's fault. */
class JudgeOutputError extends Error {}

/** One scoring run ended without a usable result; `what` says which part failed. */
class ScoringRunError extends Error {
  readonly what: string;
  readonly sandboxId: string | undefined;
  constructor(what: string, message: string, sandboxId: string | undefined, options?: ErrorOptions) {
    super(message, options);
    this.what = what;
    this.sandboxId = sandboxId;
  }
}

function describeRunError(err: ScoringRunError): string {
  return `${err.what}: ${err.message}`;
}

/**
 * Scores tasks in a fresh sandbox of the task's image, never in the agent's container (DESIGN.md,
 * "Scoring: never trust the agent's container"): the read-out is filtered, laid over the task's
 * original workspace, and judged by the language's judge running as root next to hidden tests the
 * agent user cannot read; a fresh nonce per run, the reward from the judge's verdicts. The flow
 * knows no language: the plugin gives the judge (`JudgeCommand`).
 */
export function createSandboxScorer(options: SandboxScorerOptions): Scorer {
  const limits: SandboxScorerLimits = Object.freeze({ ...DEFAULT_SANDBOX_SCORER_LIMITS, ...options.limits });
  const { provider, judge } = options;
  const logger = options.logger.child({ component: 'scorer' });
  const originals = new Map<string, Promise<FileEntry[]>>();

  /** Each package folder read once per scorer (keyed by what it is), a failed read tried again next time. */
  const loadOnce = (key: string, read: () => Promise<FileEntry[]>): Promise<FileEntry[]> => {
    let tree = originals.get(key);
    if (!tree) {
      tree = read();
      originals.set(key, tree);
      tree.catch(() => originals.delete(key));
    }
    return tree;
  };

  /** The request's trees and the judge's task fields, or why they cannot be had (an INFRA_ERROR). */
  async function prepare(request: ScoreRequest): Promise<Prepared | { infra: string }> {
    const { task } = request;
    const log = logger.child({ taskId: task.id });
    const filtered = filterReadout(request.workspace, {
      protectedPaths: task.file.protectedPaths,
      ...(limits.readout ? { limits: limits.readout } : {}),
    });
    let workspaceTree: FileEntry[];
    let hiddenTree: FileEntry[];
    try {
      const original = await loadOnce(`workspace:${task.dir}`, () => readWorkspace(task));
      workspaceTree = buildFinalTree(original, filtered.kept, request.workspace, task.file.protectedPaths);
      hiddenTree = (await loadOnce(`hidden:${task.hiddenDir}`, () => readTree(task.hiddenDir))).map((e) => ({
        ...e,
        uid: 0,
        gid: 0,
        mode: e.type === 'directory' ? 0o700 : 0o600,
      }));
    } catch (err) {
      log.error({ err }, 'cannot read the task package');
      return { infra: `cannot read the task package: ${messageOf(err)}` };
    }
    try {
      const judgeConfig = judge.config(task);
      return { task, log, workspaceTree, hiddenTree, judgeConfig, droppedNote: summariseDropped(filtered.dropped), timeoutMs: task.file.tests.timeoutMs };
    } catch (err) {
      log.error({ err }, "task.json tests is not for this language's judge");
      return { infra: messageOf(err) };
    }
  }

  const infraResult = (detail: string, started: number): ScoreResult => ({
    reward: 0,
    outcome: 'INFRA_ERROR',
    passed: 0,
    total: 0,
    tests: [],
    detail,
    durationMs: Math.round(performance.now() - started),
  });

  /** A fresh scoring sandbox of the task's image, for `runs` judge runs. */
  const createScoringSandbox = (prepared: Prepared, runs: number, signalOption: { signal?: AbortSignal }): Promise<Sandbox> =>
    provider.create(
      {
        image: provider.imageFor(prepared.task.file.runtime.image),
        role: 'scoring',
        workdir: prepared.task.file.workdir,
        resources: limits.resources,
        labels: { 'codemidas.task': prepared.task.id, 'codemidas.purpose': 'scoring' },
        expiresAt: new Date(Date.now() + runs * (prepared.timeoutMs + limits.judgeGraceMs) + limits.sandboxExpiryMarginMs),
        ...runtimeSpecFields(prepared.task.file.runtime),
      },
      signalOption,
    );

  /** Removed after the answer, not before it (a container removal is ~0.2 s of the engine's time); the provider's close still waits for removals in flight. */
  const destroyLater = (sandbox: Sandbox, log: Logger): void => {
    void sandbox.destroy().catch((err: unknown) => log.error({ err, sandboxId: sandbox.id }, 'could not destroy the scoring sandbox'));
  };

  /** A judge run's config: the task's fields, the generic ones, and a fresh nonce its result line must carry. */
  const judgeRun = (prepared: Prepared, budgetMs: number): { config: Record<string, unknown>; nonce: string } => {
    const nonce = randomBytes(12).toString('hex');
    const config = {
      ...prepared.judgeConfig,
      workspace: prepared.task.file.workdir,
      hiddenDir: HIDDEN_DIR_IN_SANDBOX,
      budgetMs,
      uid: AGENT_UID,
      gid: AGENT_GID,
      dropPrivileges: true,
      nonce,
    };
    return { config, nonce };
  };

  /** What a judge printed, as SCORED or TIMEOUT (its budget exhausted). */
  function resultOf(prepared: Prepared, judged: JudgeOutput, durationMs: number, phasesMs: Record<string, number>): ScoreResult {
    const { log, timeoutMs, droppedNote } = prepared;
    const passed = judged.tests.filter((t) => t.status === 'passed').length;
    const total = judged.tests.length;
    const detail = [judged.detail, judged.tampered ? 'tampering detected' : '', droppedNote].filter((s) => s !== '').join('; ');
    if (judged.budgetExhausted) {
      log.info({ passed, total }, 'scoring budget exhausted');
      return { reward: 0, outcome: 'TIMEOUT', passed, total, tests: judged.tests, detail: `scoring ran past ${timeoutMs} ms; ${detail}`, durationMs };
    }
    const reward = computeReward(prepared.task, passed, total);
    log.debug({ passed, total, reward, timings: { ...judged.timings, ...phasesMs } }, 'scored');
    return { reward, outcome: 'SCORED', passed, total, tests: judged.tests, detail, durationMs };
  }

  /** A run that outlasted the judge's own limit and the grace: the agent's code outlasting every kill. */
  const timedOutResult = (prepared: Prepared, durationMs: number): ScoreResult => {
    prepared.log.warn({ durationMs }, 'scoring run timed out');
    return { reward: 0, outcome: 'TIMEOUT', passed: 0, total: 0, tests: [], detail: `scoring ran past ${prepared.timeoutMs} ms; ${prepared.droppedNote}`, durationMs };
  };

  /**
   * One judge run in `sandbox`, whose workdir holds the tree to score: SCORED or TIMEOUT, or throws
   * when the run is unusable (no judge output, sandbox errors).
   */
  async function judgeIn(
    sandbox: Sandbox,
    prepared: Prepared,
    run: { budgetMs: number; started: number; phasesMs: Record<string, number> },
    signalOption: { signal?: AbortSignal },
  ): Promise<ScoreResult> {
    const elapsed = (): number => Math.round(performance.now() - run.started);
    const { config, nonce } = judgeRun(prepared, run.budgetMs);
    const done = await sandbox.exec(
      { argv: [...judge.argv] },
      {
        timeoutMs: prepared.timeoutMs + limits.judgeGraceMs,
        maxOutputBytes: limits.maxJudgeOutputBytes,
        stdin: Buffer.from(JSON.stringify(config)),
        cwd: '/',
        ...signalOption,
      },
    );
    run.phasesMs['exec'] = elapsed();
    // The judge enforces the task's limit itself; running past it and the grace is the agent's
    // code outlasting every kill, so it is a timeout, never retried into a better score.
    if (done.timedOut) return timedOutResult(prepared, elapsed());
    let judged: JudgeOutput;
    try {
      judged = parseJudgeOutput(done.stdout, nonce, done.exitCode, done.stderr);
    } catch (err) {
      throw new ScoringRunError('judge output unusable', messageOf(err), sandbox.id, { cause: err });
    }
    return resultOf(prepared, judged, elapsed(), run.phasesMs);
  }

  /** A run that threw, as a ScoringRunError naming the part that failed. */
  const asRunError = (err: unknown, sandbox: Sandbox | undefined): ScoringRunError =>
    err instanceof ScoringRunError ? err : new ScoringRunError('scoring sandbox failed', messageOf(err), sandbox?.id, { cause: err });

  async function score(request: ScoreRequest): Promise<ScoreResult> {
    const started = performance.now();
    const prepared = await prepare(request);
    if ('infra' in prepared) return infraResult(prepared.infra, started);
    const { log, droppedNote } = prepared;
    const signalOption = request.signal ? { signal: request.signal } : {};

    /** One scoring run in a fresh sandbox: SCORED or TIMEOUT, or throws when the run is unusable. */
    const runOnce = async (): Promise<ScoreResult> => {
      const attemptStarted = performance.now();
      const sinceAttempt = (): number => Math.round(performance.now() - attemptStarted);
      const phasesMs: Record<string, number> = {};
      let sandbox: Sandbox | undefined;
      try {
        sandbox = await createScoringSandbox(prepared, 1, signalOption);
        phasesMs['create'] = sinceAttempt();
        // One archive for both trees: each put is an engine round trip (~60 ms here), and a put into
        // a folder the image lacks costs a failed try, a mkdir and a second try.
        await sandbox.putFiles('/', scoringTree(prepared.task.file.workdir, prepared.workspaceTree, prepared.hiddenTree), signalOption);
        phasesMs['put'] = sinceAttempt();
        const budgetMs = Math.max(1000, prepared.timeoutMs - sinceAttempt());
        const result = await judgeIn(sandbox, prepared, { budgetMs, started: attemptStarted, phasesMs }, signalOption);
        return { ...result, durationMs: Math.round(performance.now() - started) };
      } catch (err) {
        throw asRunError(err, sandbox);
      } finally {
        if (sandbox) destroyLater(sandbox, log);
      }
    };

    // A run that throws is one the agent could not have ended (DESIGN.md, Scoring 6): its code runs
    // only as the agent user inside the judge, which outlives whatever that code does and reports it
    // as failed tests. So the sandbox itself failed (killed from outside, the engine erring): the run
    // is tried once more in a new sandbox, and only then is it an INFRA_ERROR.
    const failures: ScoringRunError[] = [];
    while (failures.length < Math.max(1, limits.attempts)) {
      try {
        const result = await runOnce();
        if (failures.length === 0) return result;
        log.info({ outcome: result.outcome, failures: failures.length }, 'scored in a new sandbox after a failed run');
        return { ...result, detail: `${result.detail}; scored in a new sandbox after: ${failures.map(describeRunError).join('; ')}` };
      } catch (err) {
        const failure = asRunError(err, undefined);
        failures.push(failure);
        log.error({ err: failure.cause ?? failure, sandboxId: failure.sandboxId, attempt: failures.length }, 'scoring run failed');
        if (request.signal?.aborted) break;
      }
    }
    const tries = failures.length > 1 ? ` (${failures.length} runs, each in a new sandbox)` : '';
    return infraResult(`${failures.map(describeRunError).join('; then ')}${tries}; ${droppedNote}`, started);
  }

  /**
   * Scores several read-outs of one task one after another in one fresh sandbox (the build's gates:
   * the reference four times, the masked workspace twice), for a sixth of the engine's work, in one
   * exec (`SERIES_SCRIPT`): each distinct tree is put once into a root-only folder with each run's
   * config, and each run starts from a fresh copy of its tree in the workdir and an empty /tmp, with
   * a new judge and nonce (the judge kills every process of the agent user between its phases). The
   * runs up to the first without a usable result are kept; that run and every run after it are
   * scored the ordinary way (`score`: a new sandbox each, tried again on failure). A run that timed
   * out is kept (as TIMEOUT) and the runs after it are scored that way too (its processes may have
   * outlived it); so, when the whole exec outlasted its limit, is the first run without a result.
   */
  async function scoreSeries(requests: readonly ScoreRequest[], options: { signal?: AbortSignal } = {}): Promise<ScoreResult[]> {
    const first = requests[0];
    if (first === undefined) return [];
    if (requests.some((r) => r.task.dir !== first.task.dir)) throw new Error('scoreSeries scores read-outs of one task; these name several');
    const signalOption = options.signal ? { signal: options.signal } : {};
    const each = (from: number): Promise<ScoreResult[]> => Promise.all(requests.slice(from).map((r) => score({ ...r, ...signalOption })));
    // One copy per distinct read-out (the gates pass the same array for each run of a tree), each prepared once.
    const trees = [...new Set(requests.map((r) => r.workspace))];
    const prepared: Prepared[] = [];
    for (const tree of trees) {
      const p = await prepare({ task: first.task, workspace: tree });
      if ('infra' in p) return each(0);
      prepared.push(p);
    }
    const head = prepared[0] as Prepared;
    const series = SERIES_DIR_IN_SANDBOX.slice(1);
    const copies: FileEntry[] = [{ path: series, type: 'directory', mode: 0o700, uid: 0, gid: 0 }];
    prepared.forEach((p, k) => {
      copies.push({ path: `${series}/${k}`, type: 'directory', mode: 0o755, uid: AGENT_UID, gid: AGENT_GID });
      for (const e of p.workspaceTree) copies.push({ ...e, path: `${series}/${k}/${e.path}` });
    });
    // a read-out judged by other tests of the same package (the build's examples gate) gets its own task's judge config
    const judgedBy = (r: ScoreRequest, k: number): Prepared => {
      const p = prepared[k] as Prepared;
      return r.task === p.task ? p : { ...p, task: r.task, judgeConfig: judge.config(r.task), timeoutMs: r.task.file.tests.timeoutMs };
    };
    let runs: { k: number; p: Prepared; nonce: string }[];
    try {
      runs = requests.map((r, i) => {
        const k = trees.indexOf(r.workspace);
        const p = judgedBy(r, k);
        const { config, nonce } = judgeRun(p, head.timeoutMs);
        copies.push({ path: `${series}/run-${i}.json`, type: 'file', mode: 0o600, uid: 0, gid: 0, content: Buffer.from(JSON.stringify(config)) });
        return { k, p, nonce };
      });
    } catch {
      // tests this judge cannot read: each request alone, where `prepare` reports why
      return each(0);
    }

    const results: ScoreResult[] = [];
    let sandbox: Sandbox | undefined;
    try {
      const started = performance.now();
      sandbox = await createScoringSandbox(head, requests.length, signalOption);
      await sandbox.putFiles('/', [...scoringTree(head.task.file.workdir, [], head.hiddenTree), ...copies], signalOption);
      const setupMs = Math.round(performance.now() - started);
      const argv = ['sh', '-c', SERIES_SCRIPT, 'series', posix.normalize(head.task.file.workdir), SERIES_DIR_IN_SANDBOX, runs.map((r) => r.k).join(' '), ...judge.argv];
      const done = await sandbox.exec(
        { argv },
        { timeoutMs: requests.length * (head.timeoutMs + limits.judgeGraceMs), maxOutputBytes: requests.length * limits.maxJudgeOutputBytes, cwd: '/', ...signalOption },
      );
      const execMs = Math.round(performance.now() - started) - setupMs;
      // each run's share of the exec (the judges time themselves; the engine's part is shared)
      const durationMs = Math.round(execMs / requests.length);
      for (const [i, { p, nonce }] of runs.entries()) {
        let judged: JudgeOutput;
        try {
          judged = parseJudgeOutput(done.stdout, nonce, done.exitCode, done.stderr);
        } catch (err) {
          if (done.timedOut) {
            results.push(timedOutResult(p, durationMs));
            break;
          }
          throw new ScoringRunError('judge output unusable', `${messageOf(err)} (run ${i + 1} of a series of ${requests.length})`, sandbox.id, { cause: err });
        }
        const result = resultOf(p, judged, durationMs, { series: i, setup: setupMs, exec: execMs });
        results.push(result);
        if (result.outcome === 'TIMEOUT') break;
      }
      // a run cut at its limit may leave its processes running: the runs after it get sandboxes of their own
      return results.length < requests.length ? [...results, ...(await each(results.length))] : results;
    } catch (err) {
      const failure = asRunError(err, sandbox);
      head.log.error({ err: failure.cause ?? failure, sandboxId: failure.sandboxId, run: results.length }, 'a series run failed; the rest are scored one sandbox each');
      if (options.signal?.aborted) return [...results, ...requests.slice(results.length).map(() => infraResult(describeRunError(failure), performance.now()))];
      return [...results, ...(await each(results.length))];
    } finally {
      if (sandbox) destroyLater(sandbox, head.log);
    }
  }

  return { score, scoreSeries };
}

function computeReward(task: LoadedTask, passed: number, total: number): number {
  if (total === 0) return 0;
  if (task.file.rewardMode === 'binary') return passed === total ? 1 : 0;
  return passed / total;
}

const STATUSES: ReadonlySet<string> = new Set<TestStatus>(['passed', 'failed', 'error', 'skipped', 'missing']);

/** Finds the judge's one result line (prefix + this run's nonce) and checks its shape. */
export function parseJudgeOutput(stdout: string, nonce: string, exitCode: number, stderr = ''): JudgeOutput {
  const marker = `${RESULT_PREFIX}${nonce} `;
  const line = stdout.split('\n').find((l) => l.startsWith(marker));
  if (line === undefined) {
    const tail = stderr.trim().split('\n').slice(-3).join(' | ').slice(-400);
    throw new JudgeOutputError(`no result from the judge (exit code ${exitCode})${tail ? `: ${tail}` : ''}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(line.slice(marker.length));
  } catch {
    throw new JudgeOutputError('the judge printed a result that is not JSON');
  }
  if (typeof raw !== 'object' || raw === null) throw new JudgeOutputError('the judge result is not an object');
  const o = raw as Record<string, unknown>;
  if (!Array.isArray(o['tests'])) throw new JudgeOutputError('the judge result has no tests');
  const tests: TestOutcome[] = o['tests'].map((t: unknown) => {
    const r = (typeof t === 'object' && t !== null ? t : {}) as Record<string, unknown>;
    if (typeof r['name'] !== 'string' || typeof r['status'] !== 'string' || !STATUSES.has(r['status'])) {
      throw new JudgeOutputError('the judge result has a malformed test outcome');
    }
    return { name: r['name'], status: r['status'] as TestStatus, message: typeof r['message'] === 'string' ? r['message'] : '' };
  });
  const out: JudgeOutput = {
    tests,
    tampered: o['tampered'] === true,
    budgetExhausted: o['budgetExhausted'] === true,
    detail: typeof o['detail'] === 'string' ? o['detail'] : '',
  };
  if (typeof o['timings'] === 'object' && o['timings'] !== null) out.timings = o['timings'] as Record<string, number>;
  return out;
}

/**
 * The tree scored: the agent's kept files over the task's original workspace, without the original
 * files the agent deleted; protected originals always come back. Where two entries cannot both
 * exist (a file where a folder must be), the higher priority wins: protected originals, then the
 * agent's files, then restored originals. Every entry belongs to the agent user.
 */
export function buildFinalTree(
  original: readonly FileEntry[],
  kept: readonly FileEntry[],
  readout: readonly FileEntry[],
  protectedPaths: readonly string[],
): FileEntry[] {
  const protectedNorm = protectedPaths.map((p) => normaliseWorkspacePath(p)).filter((p): p is string => p !== null);
  const isProtected = (path: string): boolean => protectedNorm.some((p) => path === p || path.startsWith(`${p}/`));
  const present = new Set(readout.map((e) => normaliseWorkspacePath(e.path)).filter((p): p is string => p !== null));
  const originalFiles = original.filter((e) => e.type === 'file');

  const ordered: FileEntry[] = [
    ...originalFiles.filter((e) => isProtected(e.path)),
    ...kept,
    // Present in the read-out but not kept (dropped by the filter): the original comes back.
    ...originalFiles.filter((e) => !isProtected(e.path) && present.has(e.path)),
  ];

  const files = new Set<string>();
  const dirs = new Set<string>();
  const out: FileEntry[] = [];
  const ancestors = (path: string): string[] => {
    const parts = path.split('/');
    return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
  };
  for (const entry of ordered) {
    const path = entry.path;
    if (files.has(path) || ancestors(path).some((a) => files.has(a))) continue;
    if (entry.type === 'file') {
      if (dirs.has(path)) continue;
      files.add(path);
      const executable = (entry.mode & 0o111) !== 0;
      out.push({ path, type: 'file', mode: executable ? 0o755 : 0o644, content: entry.content ?? Buffer.alloc(0), uid: AGENT_UID, gid: AGENT_GID });
    } else if (entry.type === 'directory') {
      if (dirs.has(path)) continue;
      out.push({ path, type: 'directory', mode: 0o755, uid: AGENT_UID, gid: AGENT_GID });
    } else {
      continue;
    }
    for (const a of ancestors(path)) dirs.add(a);
    if (entry.type === 'directory') dirs.add(path);
  }
  // Every parent folder listed explicitly, so none is created as root by the engine.
  const listed = new Set(out.filter((e) => e.type === 'directory').map((e) => e.path));
  for (const dir of [...dirs].sort()) {
    if (!listed.has(dir)) out.push({ path: dir, type: 'directory', mode: 0o755, uid: AGENT_UID, gid: AGENT_GID });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The workspace and the hidden tests as one tree rooted at `/`: the workdir the agent user's, the
 * hidden folder root-only, and every folder above them listed as root's 0755 (what the engine
 * would create for a missing one), so none is left to the engine's choice.
 */
export function scoringTree(workdir: string, workspace: readonly FileEntry[], hidden: readonly FileEntry[]): FileEntry[] {
  const rel = (dir: string): string => posix.normalize(dir).replace(/^\/+|\/+$/g, '');
  const work = rel(workdir);
  const secret = rel(HIDDEN_DIR_IN_SANDBOX);
  if (work === '' || work === secret || work.startsWith(`${secret}/`) || secret.startsWith(`${work}/`)) {
    throw new Error(`workdir ${workdir} cannot hold, or sit inside, the hidden tests' folder ${HIDDEN_DIR_IN_SANDBOX}`);
  }
  const out: FileEntry[] = [];
  const listed = new Set<string>();
  const folder = (path: string, mode: number, owner: number): void => {
    if (listed.has(path)) return;
    listed.add(path);
    out.push({ path, type: 'directory', mode, uid: owner, gid: owner });
  };
  for (const top of [work, secret]) {
    const parts = top.split('/');
    for (let i = 1; i < parts.length; i++) folder(parts.slice(0, i).join('/'), 0o755, 0);
  }
  folder(work, 0o755, AGENT_UID);
  folder(secret, 0o700, 0);
  for (const e of workspace) out.push({ ...e, path: `${work}/${e.path}` });
  for (const e of hidden) out.push({ ...e, path: `${secret}/${e.path}` });
  return out;
}

/** The task's composed workspace (plain files and folders; links are refused, as in `readTree`). */
async function readWorkspace(task: LoadedTask): Promise<FileEntry[]> {
  const entries = await listWorkspaceFiles(task);
  const odd = entries.find((e) => e.type !== 'file' && e.type !== 'directory');
  if (odd) throw new Error(`${task.dir}: workspace path ${odd.path}: task packages may hold only plain files and folders`);
  return entries.map((e) => ({ ...e, mode: e.mode & 0o777 }));
}

/** Reads a folder of the task package into entries (plain files and folders; links are refused). */
export async function readTree(root: string): Promise<FileEntry[]> {
  const out: FileEntry[] = [];
  const walk = async (dir: string, rel: string): Promise<void> => {
    const names = (await readdir(dir)).sort();
    for (const name of names) {
      const abs = join(dir, name);
      const path = rel ? posix.join(rel, name) : name;
      const info = await lstat(abs);
      if (info.isDirectory()) {
        out.push({ path, type: 'directory', mode: info.mode & 0o777 });
        await walk(abs, path);
      } else if (info.isFile()) {
        out.push({ path, type: 'file', mode: info.mode & 0o777, content: await readFile(abs) });
      } else {
        throw new Error(`${abs}: task packages may hold only plain files and folders`);
      }
    }
  };
  await walk(root, '');
  return out;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
