import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Parser } from 'web-tree-sitter';
import { createParser } from '../tree-sitter-grammar.js';
import type { RepoSnapshot, Unit } from '../construction-types.js';
import type { ParseOptions, ParseProblem, ParseProblemCode, ParseResult } from '../language-adapter.js';
import { type RawCall, readCalls } from './parse-call-sites.js';
import { readDefinitions } from './parse-definitions.js';
import { type ImportTable, readImports, resolveThroughImports } from './parse-imports.js';
import { isLibraryPath, pythonModuleLocation } from './parse-module-names.js';
import { firstErrorLine } from '../tree-sitter-nodes.js';
import { attachCallSites as attachSortedCallSites, compareStrings } from '../call-sites.js';

interface ParsedFile {
  file: string;
  module: string;
  imports: ImportTable;
  calls: RawCall[];
}

/** How many alias hops (`pkg/__init__.py` re-exporting `pkg.text.wrap`) call-site resolution follows. */
const MAX_ALIAS_HOPS = 6;

/**
 * Parses every `.py` file of the snapshot: units from library files (not tests, examples, docs or
 * tooling), call sites from all files. A file with a syntax error (an ERROR or MISSING node anywhere:
 * Python would refuse to import it) or that is not valid UTF-8 is a problem and is skipped.
 */
export async function parsePythonUnits(snapshot: RepoSnapshot, options: ParseOptions = {}): Promise<ParseResult> {
  const pythonFiles = snapshot.files.filter((f) => f.endsWith('.py'));
  const fileSet = new Set(snapshot.files);
  const problems: ParseProblem[] = [];
  const units: Unit[] = [];
  const parsed: ParsedFile[] = [];
  const parser = await createParser('python');
  try {
    for (const file of pythonFiles) {
      options.signal?.throwIfAborted();
      const result = await parseOneFile(parser, snapshot.dir, file, fileSet);
      if ('problem' in result) {
        problems.push({ file, code: result.code, message: result.problem });
        continue;
      }
      units.push(...result.units);
      if (result.unitProblem !== null) problems.push({ file, code: 'not-importable', message: result.unitProblem });
      parsed.push(result.parsed);
    }
  } finally {
    parser.delete();
  }
  const unique = dropRedefinitions(units, problems);
  attachCallSites(unique, parsed);
  unique.sort((a, b) => compare(a.file, b.file) || a.startLine - b.startLine || compare(a.qualname, b.qualname));
  problems.sort((a, b) => compare(a.file, b.file));
  return { units: unique, problems };
}

const OVERLOAD = /^(typing\.)?overload$/;
const PROPERTY_PART = /^(property|\w+\.(setter|getter|deleter))$/;

/**
 * One unit per id. `@overload` stubs are not units. A property's setter and deleter share the getter's
 * name: the getter stands for the group. Any other name defined twice (platform alternatives in
 * `if`/`try` blocks) is ambiguous, since masking one copy while the other runs would make a broken
 * task, so none of its copies (nor their methods) is a unit, and a problem says so.
 */
function dropRedefinitions(units: Unit[], problems: ParseProblem[]): Unit[] {
  const groups = new Map<string, Unit[]>();
  for (const unit of units) {
    if (unit.decorators.some((d) => OVERLOAD.test(d))) continue;
    const group = groups.get(unit.id) ?? [];
    group.push(unit);
    groups.set(unit.id, group);
  }
  const ambiguous: string[] = [];
  const kept: Unit[] = [];
  for (const [id, group] of groups) {
    const first = group[0];
    if (first === undefined || insideAny(id, ambiguous)) continue;
    if (group.length === 1 || group.slice(1).every((u) => u.decorators.some((d) => PROPERTY_PART.test(d)))) {
      kept.push(first);
      continue;
    }
    ambiguous.push(id);
    problems.push({
      file: first.file,
      code: 'redefined',
      message: `'${first.qualname}' is defined ${group.length} times (lines ${group.map((u) => u.startLine).join(', ')}); which one runs depends on the code path, so none is a unit`,
    });
  }
  return kept.filter((u) => !insideAny(u.id, ambiguous));
}

/** True when `id` is a member (`m:C.f`) of one of `parents` (`m:C`). */
function insideAny(id: string, parents: readonly string[]): boolean {
  return parents.some((parent) => id.startsWith(`${parent}.`));
}

type FileResult = { problem: string; code: ParseProblemCode } | { units: Unit[]; parsed: ParsedFile; unitProblem: string | null };

async function parseOneFile(parser: Parser, dir: string, file: string, fileSet: ReadonlySet<string>): Promise<FileResult> {
  let source: string;
  try {
    source = new TextDecoder('utf-8', { fatal: true }).decode(await readFile(join(dir, file)));
  } catch {
    return { code: 'not-utf8', problem: 'not valid UTF-8 text (only UTF-8 source is read, whatever a coding line says; re-save it as UTF-8 to include it); file skipped' };
  }
  const tree = parser.parse(source);
  if (tree === null) return { code: 'parse-error', problem: 'the parser gave no tree; file skipped' };
  try {
    const root = tree.rootNode;
    if (root.hasError) return { code: 'syntax-error', problem: `syntax error at line ${firstErrorLine(root)}; file skipped` };
    const location = pythonModuleLocation(file, fileSet);
    const isPackage = file === '__init__.py' || file.endsWith('/__init__.py');
    const imports = readImports(root, location.module, isPackage);
    const calls = readCalls(root, file);
    const parsed: ParsedFile = { file, module: location.module, imports, calls };
    if (!isLibraryPath(file)) return { units: [], parsed, unitProblem: null };
    if (!location.importable) {
      const where = location.importRoot === '' ? 'the repository root' : location.importRoot;
      return { units: [], parsed, unitProblem: `cannot be imported as a module from ${where} (name '${location.module}'); its definitions are not units` };
    }
    return { units: readDefinitions(root, { file, module: location.module, imports }), parsed, unitProblem: null };
  } finally {
    tree.delete();
  }
}

/** Resolves every call to a unit (through imports, re-exports and `self.`) and records it as a call site. */
function attachCallSites(units: Unit[], parsed: ParsedFile[]): void {
  const byDottedName = new Map<string, Unit>();
  for (const unit of units) byDottedName.set(`${unit.module}.${unit.qualname}`, unit);
  const modules = new Map<string, ImportTable>();
  for (const file of parsed) modules.set(file.module, file.imports);

  const follow = (name: string, hops: number): Unit | undefined => {
    const direct = byDottedName.get(name);
    if (direct !== undefined || hops >= MAX_ALIAS_HOPS) return direct;
    const parts = name.split('.');
    for (let cut = parts.length - 1; cut >= 1; cut -= 1) {
      const table = modules.get(parts.slice(0, cut).join('.'));
      if (table === undefined) continue;
      const rest = parts.slice(cut);
      const reexported = resolveThroughImports(rest.join('.'), table);
      if (reexported !== null && reexported !== name) {
        const found = follow(reexported, hops + 1);
        if (found !== undefined) return found;
      }
      for (const star of table.stars) {
        const found = follow(`${star}.${rest.join('.')}`, hops + 1);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    return undefined;
  };

  attachSortedCallSites(parsed, (call, file) => resolveCallee(call, file, follow));
}

function resolveCallee(call: RawCall, file: ParsedFile, follow: (name: string, hops: number) => Unit | undefined): Unit | undefined {
  const parts = call.callee.split('.');
  if ((parts[0] === 'self' || parts[0] === 'cls') && parts.length === 2 && call.ownerClass !== null) {
    return follow(`${file.module}.${call.ownerClass}.${parts[1] ?? ''}`, 0);
  }
  const imported = resolveThroughImports(call.callee, file.imports);
  if (imported !== null) return follow(imported, 0);
  return follow(`${file.module}.${call.callee}`, 0);
}

const compare = compareStrings;
