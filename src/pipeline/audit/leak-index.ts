import type { Tokens } from '../../languages/language.js';

/** A source file to index: a POSIX path (absolute inside an image, or workspace-relative) and its text. */
export interface SourceText {
  path: string;
  content: string;
}

/** Tokenized files with a shared vocabulary, searched for runs of a removed body. */
export interface LeakIndex {
  readonly files: readonly { path: string; ids: Int32Array; lines: Int32Array }[];
  readonly vocabulary: ReadonlyMap<string, number>;
  /** Tokens indexed, all files together. */
  readonly tokenCount: number;
}

/** A 1-based inclusive range of lines of a file. */
export interface LineSpan {
  startLine: number;
  endLine: number;
}

export interface LeakHit {
  path: string;
  /** 1-based line where the first matching run starts. */
  line: number;
  /** Length of the runs searched for, in tokens. */
  runTokens: number;
  /** Share of the body's tokens covered by matching runs in this file (0..1, 3 decimals). */
  coverage: number;
  /**
   * Where the matching runs lie in the file: the lines of their first and last tokens, runs that
   * share a line merged, in file order. Lets a caller tell which definition of the file holds the copy.
   */
  spans: LineSpan[];
}

/** Cuts source into tokens (a language plugin's `leaks.tokenize`). */
export type Tokenize = (source: string) => Tokens;

export function buildLeakIndex(sources: Iterable<SourceText>, tokenize: Tokenize): LeakIndex {
  const vocabulary = new Map<string, number>();
  const files: { path: string; ids: Int32Array; lines: Int32Array }[] = [];
  let tokenCount = 0;
  for (const source of sources) {
    const { tokens, lines } = tokenize(source.content);
    const ids = new Int32Array(tokens.length);
    tokens.forEach((t, i) => {
      let id = vocabulary.get(t);
      if (id === undefined) {
        id = vocabulary.size;
        vocabulary.set(t, id);
      }
      ids[i] = id;
    });
    files.push({ path: source.path, ids, lines: Int32Array.from(lines) });
    tokenCount += tokens.length;
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, vocabulary, tokenCount };
}

const BASE = 1_000_003;

function powMod32(base: number, exp: number): number {
  let out = 1;
  for (let i = 0; i < exp; i++) out = Math.imul(out, base) >>> 0;
  return out;
}

/**
 * Files in which runs of `runTokens` consecutive body tokens (the whole body when shorter) cover at
 * least `minCoverage` of the body. A rolling hash finds candidate runs; each is checked token by
 * token. Coverage, not a single run, decides: a copy of the body with an edit in the middle still
 * covers most of it, while a guard clause the body shares with its siblings covers a small part.
 */
export function findRuns(index: LeakIndex, body: readonly string[], runTokens: number, minCoverage = 0): LeakHit[] {
  const n = Math.min(runTokens, body.length);
  if (n <= 0) return [];
  const bodyIds = body.map((t) => index.vocabulary.get(t) ?? -1);
  const windows = new Map<number, number[]>();
  const top = powMod32(BASE, n - 1);
  for (let start = 0; start + n <= bodyIds.length; start++) {
    const slice = bodyIds.slice(start, start + n);
    if (slice.includes(-1)) continue;
    let h = 0;
    for (const id of slice) h = (Math.imul(h, BASE) + id + 1) >>> 0;
    const list = windows.get(h);
    if (list) list.push(start);
    else windows.set(h, [start]);
  }
  if (windows.size === 0) return [];
  const hits: LeakHit[] = [];
  for (const file of index.files) {
    const ids = file.ids;
    if (ids.length < n) continue;
    let covered: Uint8Array | null = null;
    const spans: LineSpan[] = [];
    let h = 0;
    for (let i = 0; i < n; i++) h = (Math.imul(h, BASE) + (ids[i] ?? 0) + 1) >>> 0;
    for (let pos = 0; ; pos++) {
      const candidates = windows.get(h);
      if (candidates) {
        let matched = false;
        for (const start of candidates) {
          if (!sameRun(ids, pos, bodyIds, start, n)) continue;
          covered ??= new Uint8Array(bodyIds.length);
          covered.fill(1, start, start + n);
          matched = true;
        }
        if (matched) addSpan(spans, file.lines[pos] ?? 0, file.lines[pos + n - 1] ?? 0);
      }
      if (pos + n >= ids.length) break;
      const out = (ids[pos] ?? 0) + 1;
      h = (h - Math.imul(out, top)) >>> 0;
      h = (Math.imul(h, BASE) + (ids[pos + n] ?? 0) + 1) >>> 0;
    }
    if (covered === null) continue;
    const coverage = covered.reduce((a, b) => a + b, 0) / bodyIds.length;
    if (coverage >= minCoverage) hits.push({ path: file.path, line: spans[0]?.startLine ?? 0, runTokens: n, coverage: Math.round(coverage * 1000) / 1000, spans });
  }
  return hits;
}

/** Adds the lines of a run found at or after the previous one, merged with the last span when they share a line. */
function addSpan(spans: LineSpan[], startLine: number, endLine: number): void {
  const last = spans.at(-1);
  if (last && startLine <= last.endLine) last.endLine = Math.max(last.endLine, endLine);
  else spans.push({ startLine, endLine });
}

function sameRun(ids: Int32Array, pos: number, body: readonly number[], start: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (ids[pos + k] !== body[start + k]) return false;
  return true;
}
