import type { Node } from 'web-tree-sitter';
import { type ImportTable, resolveThroughImports } from './parse-imports.js';
import { dottedName, namedChildrenOf } from './parse-syntax.js';

/**
 * Kinds of dependence on the world outside a function's arguments. Each impurity string is
 * `<kind>:<what was seen>` (`clock:time.time`, `global:global counter`); `select` drops with `impure:<kind>`.
 */
export type ImpurityKind = 'clock' | 'random' | 'environment' | 'network' | 'filesystem' | 'process' | 'threads' | 'io' | 'global';

/** Fully resolved dotted names (after imports) and the kind each prefix implies; matched on whole segments. */
const MODULE_RULES: ReadonlyArray<readonly [string, ImpurityKind]> = [
  ['time', 'clock'],
  ['datetime.datetime.now', 'clock'],
  ['datetime.datetime.today', 'clock'],
  ['datetime.datetime.utcnow', 'clock'],
  ['datetime.date.today', 'clock'],
  ['random', 'random'],
  ['secrets', 'random'],
  ['uuid', 'random'],
  ['numpy.random', 'random'],
  ['os.urandom', 'random'],
  ['os.getrandom', 'random'],
  ['os.environ', 'environment'],
  ['os.getenv', 'environment'],
  ['os.putenv', 'environment'],
  ['os.unsetenv', 'environment'],
  ['os.getcwd', 'environment'],
  ['os.chdir', 'environment'],
  ['sys.argv', 'environment'],
  ['socket', 'network'],
  ['ssl', 'network'],
  ['urllib', 'network'],
  ['http', 'network'],
  ['requests', 'network'],
  ['httpx', 'network'],
  ['aiohttp', 'network'],
  ['ftplib', 'network'],
  ['smtplib', 'network'],
  ['io.open', 'filesystem'],
  ['os.remove', 'filesystem'],
  ['os.unlink', 'filesystem'],
  ['os.rmdir', 'filesystem'],
  ['os.mkdir', 'filesystem'],
  ['os.makedirs', 'filesystem'],
  ['os.rename', 'filesystem'],
  ['os.replace', 'filesystem'],
  ['os.listdir', 'filesystem'],
  ['os.scandir', 'filesystem'],
  ['os.walk', 'filesystem'],
  ['os.path.exists', 'filesystem'],
  ['os.path.isfile', 'filesystem'],
  ['os.path.isdir', 'filesystem'],
  ['os.path.getsize', 'filesystem'],
  ['os.path.getmtime', 'filesystem'],
  ['shutil', 'filesystem'],
  ['tempfile', 'filesystem'],
  ['glob', 'filesystem'],
  ['subprocess', 'process'],
  ['multiprocessing', 'process'],
  ['signal', 'process'],
  ['os.system', 'process'],
  ['os.popen', 'process'],
  ['os.fork', 'process'],
  ['os.kill', 'process'],
  ['os.getpid', 'process'],
  ['threading', 'threads'],
  ['_thread', 'threads'],
  ['concurrent.futures', 'threads'],
  ['sys.stdin', 'io'],
  ['sys.stdout', 'io'],
  ['sys.stderr', 'io'],
];

/** Builtins called by bare name (only when the name is not imported or a local). */
const BUILTIN_RULES: ReadonlyMap<string, ImpurityKind> = new Map([
  ['open', 'filesystem'],
  ['print', 'io'],
  ['input', 'io'],
  ['breakpoint', 'io'],
]);

/** Methods that write to the filesystem whatever their receiver (pathlib mostly). */
const WRITING_METHODS = new Set(['write_text', 'write_bytes', 'unlink', 'mkdir', 'rmdir', 'touch', 'symlink_to', 'hardlink_to']);

function kindOfResolved(resolved: string): ImpurityKind | null {
  for (const [prefix, kind] of MODULE_RULES) {
    if (resolved === prefix || resolved.startsWith(`${prefix}.`)) return kind;
  }
  if (/^os\.(exec|spawn)/.test(resolved)) return 'process';
  return null;
}

function isSameNode(a: Node | null, b: Node): boolean {
  return a !== null && a.startIndex === b.startIndex && a.endIndex === b.endIndex && a.type === b.type;
}

/**
 * Impurities in `body`, in order of first appearance: references (through the file's imports) to the
 * clock, randomness, environment, network, filesystem, processes, threads, standard streams, and
 * `global`/`nonlocal` statements. Names in `locals` (the parameters) shadow imports.
 */
export function findImpurities(body: Node, imports: ImportTable, locals: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  const visit = (node: Node): void => {
    switch (node.type) {
      case 'global_statement':
      case 'nonlocal_statement': {
        const keyword = node.type === 'global_statement' ? 'global' : 'nonlocal';
        found.add(`global:${keyword} ${namedChildrenOf(node).map((n) => n.text).join(', ')}`);
        return;
      }
      case 'call': {
        const fn = node.childForFieldName('function');
        if (fn !== null && fn.type === 'identifier') {
          const kind = BUILTIN_RULES.get(fn.text);
          if (kind !== undefined && !imports.names.has(fn.text) && !locals.has(fn.text)) found.add(`${kind}:${fn.text}`);
        }
        if (fn !== null && fn.type === 'attribute') {
          const method = fn.childForFieldName('attribute')?.text;
          if (method !== undefined && WRITING_METHODS.has(method)) found.add(`filesystem:.${method}()`);
        }
        break;
      }
      case 'identifier':
      case 'attribute': {
        const parent = node.parent;
        const inner =
          parent !== null &&
          ((parent.type === 'attribute' && (node.type === 'identifier' || isSameNode(parent.childForFieldName('object'), node))) ||
            (parent.type === 'keyword_argument' && isSameNode(parent.childForFieldName('name'), node)) ||
            parent.type === 'dotted_name');
        if (!inner) {
          const name = dottedName(node);
          const head = name?.split('.')[0];
          if (name !== null && head !== undefined && !locals.has(head)) {
            const resolved = resolveThroughImports(name, imports);
            const kind = resolved === null ? null : kindOfResolved(resolved);
            if (resolved !== null && kind !== null) found.add(`${kind}:${resolved}`);
          }
        }
        break;
      }
      default:
        break;
    }
    for (const child of node.namedChildren) if (child !== null) visit(child);
  };
  visit(body);
  return [...found];
}

/** The kind part of an impurity string (`clock` for `clock:time.time`). */
export function impurityKind(impurity: string): string {
  const colon = impurity.indexOf(':');
  return colon < 0 ? impurity : impurity.slice(0, colon);
}
