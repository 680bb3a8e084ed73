import { posix } from 'node:path';

/** The parts of a source map (version 3) the plugin reads. */
export interface SourceMapContent {
  /** The map's `sources`, as written (relative to the map's folder and its `sourceRoot`). */
  sources: string[];
  /** The map's `sourcesContent`: the text of each source, null where the map leaves it out. */
  sourcesContent: (string | null)[];
  sourceRoot: string;
}

const MAPPING_URL = /[#@]\s*sourceMappingURL\s*=\s*(\S+)\s*(?:\*\/)?\s*$/;
const DATA_URL = /^data:application\/json(?:;charset=[\w-]+)?;base64,([A-Za-z0-9+/=_-]+)$/;

/** A text as a source map, or null when it is not one (JSON with `version`, `mappings` and `sources`). */
export function parseSourceMap(text: string): SourceMapContent | null {
  const start = text.trimStart();
  if (!start.startsWith('{') && !start.startsWith(")]}'")) return null;
  let parsed: unknown;
  try {
    // a map may start with the XSSI guard `)]}'` on its own line
    parsed = JSON.parse(start.startsWith(")]}'") ? start.slice(start.indexOf('\n') + 1) : start);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object') return null;
  const map = parsed as { version?: unknown; mappings?: unknown; sources?: unknown; sourcesContent?: unknown; sourceRoot?: unknown };
  if (typeof map.mappings !== 'string' || !Array.isArray(map.sources) || map.version === undefined) return null;
  const sources = map.sources.map((s) => (typeof s === 'string' ? s : ''));
  const content = Array.isArray(map.sourcesContent) ? map.sourcesContent : [];
  return {
    sources,
    sourcesContent: sources.map((_, i) => (typeof content[i] === 'string' ? (content[i] as string) : null)),
    sourceRoot: typeof map.sourceRoot === 'string' ? map.sourceRoot : '',
  };
}

/**
 * The source map a built file names in its last lines (`//# sourceMappingURL=index.js.map`, or a
 * `data:application/json;base64,` map inline): `{ inline: map }` for an inline map, `{ path }` for
 * the snapshot-relative path of a map file, or null when the file names none.
 */
export function sourceMappingOf(file: string, text: string): { inline: SourceMapContent } | { path: string } | null {
  const tail = text.slice(-Math.min(text.length, 1 << 20)).trimEnd();
  const lastLine = tail.slice(tail.lastIndexOf('\n') + 1);
  const url = MAPPING_URL.exec(lastLine)?.[1];
  if (url === undefined) return null;
  const data = DATA_URL.exec(url);
  if (data !== null) {
    const map = parseSourceMap(Buffer.from(data[1] ?? '', 'base64').toString('utf8'));
    return map === null ? null : { inline: map };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return null; // http:, file: and the like: not in the snapshot
  return { path: posix.normalize(posix.join(posix.dirname(file), decodeURIComponent(url))) };
}

/**
 * A map's sources as snapshot-relative paths (`../src/index.ts` of `dist/index.js.map` →
 * `src/index.ts`; a bundler's `webpack://pkg/./src/x.ts` → `src/x.ts`, from the root).
 * Sources outside the snapshot's root are left out.
 */
export function mapSourcePaths(mapFile: string, map: SourceMapContent): string[] {
  const out: string[] = [];
  for (const source of map.sources) {
    const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*\//i.exec(source);
    // a bundler's URL names the path from the project's root; a plain one from the map's folder
    const path = scheme !== null
      ? posix.normalize(source.slice(scheme[0].length))
      : posix.normalize(posix.join(posix.dirname(mapFile), map.sourceRoot, source));
    if (!path.startsWith('../') && !posix.isAbsolute(path)) out.push(path);
  }
  return out;
}
