import { posix } from 'node:path';
import { InvalidArgumentError } from '../../errors.js';
import type { DependencyInstaller } from '../../images/dependency-image.js';
import { compareStrings } from '../../pipeline/write/stable-json.js';
import { DEPENDENCY_PACKAGE, MISSING_DEPENDENCIES_FILE } from '../../sandbox/runtime-dependencies.js';
import type { DeclaredDependency, DependencyRules } from '../language.js';
import { isPythonTestPath } from './parse-module-names.js';

/**
 * A Python repository's declared run-time dependencies, read statically from its root manifests
 * (never by running `setup.py`), and their installation as Debian packages (`python3-<name>`) with
 * apt on the `python` image, whose Python is Debian's: pip would not see the image's packages the
 * same way, and Debian packages need no network beyond the Debian mirror the image already uses.
 */

/** The manifests read, in the order that decides a dependency's `from`; dev and test lists are left out. */
const MANIFESTS: readonly { path: string; requirements: (text: string) => string[] }[] = [
  { path: 'pyproject.toml', requirements: pyprojectRequirements },
  { path: 'setup.cfg', requirements: setupCfgRequirements },
  { path: 'setup.py', requirements: setupPyRequirements },
  { path: 'requirements.txt', requirements: requirementsTxtRequirements },
  { path: 'requirements/base.txt', requirements: requirementsTxtRequirements },
  { path: 'requirements/prod.txt', requirements: requirementsTxtRequirements },
];

/**
 * Names (normalised) that are no dependency on the image's Python 3.11: the interpreter itself
 * (Poetry's `python` key) and backports of what its standard library has. Installing some of them
 * (`typing`, `enum34`) would even shadow the standard library.
 */
const NOT_DEPENDENCIES: ReadonlySet<string> = new Set([
  'python',
  'argparse',
  'asyncio',
  'configparser',
  'dataclasses',
  'enum34',
  'futures',
  'ordereddict',
  'pathlib',
  'typing',
]);

/**
 * Distributions whose Debian package is not `python3-<name>` (a leading `python-` dropped): Debian
 * names these after the import name, or keeps a dot of the distribution name.
 */
const DEBIAN_PACKAGES: ReadonlyMap<string, string> = new Map([
  ['attrs', 'python3-attr'],
  ['beautifulsoup4', 'python3-bs4'],
  ['msgpack-python', 'python3-msgpack'],
  ['mysqlclient', 'python3-mysqldb'],
  ['opencv-python', 'python3-opencv'],
  ['pillow', 'python3-pil'],
  ['psycopg2-binary', 'python3-psycopg2'],
  ['pygobject', 'python3-gi'],
  ['pyjwt', 'python3-jwt'],
  ['pyopenssl', 'python3-openssl'],
  ['pyserial', 'python3-serial'],
  ['pyyaml', 'python3-yaml'],
  ['pyzmq', 'python3-zmq'],
  ['ruamel-yaml', 'python3-ruamel.yaml'],
  ['scikit-image', 'python3-skimage'],
  ['scikit-learn', 'python3-sklearn'],
  ['zope-interface', 'python3-zope.interface'],
]);

/** Distributions imported by a top-level name other than their own (`import yaml` for PyYAML). */
const IMPORT_NAMES: ReadonlyMap<string, readonly string[]> = new Map([
  ['attrs', ['attr', 'attrs']],
  ['beautifulsoup4', ['bs4']],
  ['dnspython', ['dns']],
  ['msgpack-python', ['msgpack']],
  ['mysqlclient', ['MySQLdb']],
  ['opencv-python', ['cv2']],
  ['pillow', ['PIL']],
  ['protobuf', ['google']],
  ['psycopg2-binary', ['psycopg2']],
  ['pycryptodome', ['Crypto']],
  ['pygobject', ['gi']],
  ['pyjwt', ['jwt']],
  ['pyopenssl', ['OpenSSL']],
  ['pyserial', ['serial']],
  ['pyyaml', ['yaml']],
  ['pyzmq', ['zmq']],
  ['ruamel-yaml', ['ruamel']],
  ['scikit-image', ['skimage']],
  ['scikit-learn', ['sklearn']],
  ['setuptools', ['setuptools', 'pkg_resources']],
  ['zope-interface', ['zope']],
]);

/** A Debian binary package name (Debian policy 5.6.1): what may go unquoted into the layer's shell line. */
const DEBIAN_PACKAGE = /^[a-z0-9][a-z0-9.+-]+$/;

/**
 * The repository's declared run-time dependencies, one per normalised name (`DependencyRules.declared`),
 * then what its tests need to run: their requirement lists and the third-party modules their files
 * import (the repository's tests are the record stage's first source of inputs).
 */
function declared(files: ReadonlyMap<string, Buffer>): DeclaredDependency[] {
  const found = new Map<string, DeclaredDependency>();
  for (const { name, from } of requirementsOf(files)) {
    const key = normalizedName(name);
    if (!found.has(key) && !NOT_DEPENDENCIES.has(key)) found.set(key, declaredDependency(name, from));
  }
  const provided = new Set([...found.values()].flatMap((d) => d.modules));
  const listed = [...requirementsIn(testRequirementLists(files), files)];
  const own = repositoryNames(files);
  for (const module of testImports(files)) {
    if (provided.has(module) || own.has(module)) continue;
    const dependency = forTestModule(module, listed, files);
    if (dependency === null || found.has(normalizedName(dependency.name))) continue;
    found.set(normalizedName(dependency.name), dependency);
  }
  return [...found.values()].sort((a, b) => compareStrings(a.name, b.name));
}

// ---- what the tests need ------------------------------------------------------------------------

/** Requirement lists of the tests, read like requirements.txt (`-r` includes left out). */
const TEST_REQUIREMENT_LISTS = /^(?:(?:requirements[-_]tests?|tests?[-_]requirements|requirements\/tests?|requirements\/testing|tests?\/requirements)\.txt)$/;

/** Where a dependency only the tests import comes from (`DeclaredDependency.from`). */
const TEST_IMPORT = "imported by the repository's tests";

/**
 * The top-level modules the test files (`isPythonTestPath`) import at the start of a line (a
 * statement of the module, or one in its `try:` block), sorted: the standard library's, the Python
 * image's own (`IMAGE_PROVIDED`: pytest), private and relative ones left out.
 */
function testImports(files: ReadonlyMap<string, Buffer>): string[] {
  const modules = new Set<string>();
  for (const [path, content] of files) {
    if (!path.endsWith('.py') || !isPythonTestPath(path)) continue;
    for (const match of content.toString('utf8').matchAll(/^(?:[ \t]{0,4})(?:import|from)[ \t]+([A-Za-z][A-Za-z0-9_]*)/gm)) {
      const module = match[1] ?? '';
      if (!STANDARD_LIBRARY.has(module) && !IMAGE_PROVIDED.has(module) && module !== '__future__') modules.add(module);
    }
  }
  return [...modules].sort(compareStrings);
}

/**
 * The dependency behind a module the tests import that is none of the repository's own: the
 * requirement of a test list (`listed`) that provides it first, else the distribution `forModule`
 * names.
 */
function forTestModule(module: string, listed: readonly { name: string; from: string }[], files: ReadonlyMap<string, Buffer>): DeclaredDependency | null {
  const requirement = listed.find((r) => importNames(r.name).includes(module));
  if (requirement !== undefined) return { ...declaredDependency(requirement.name, requirement.from), forTests: true };
  const dependency = forModule(module, files);
  return dependency === null ? null : { ...dependency, from: TEST_IMPORT, forTests: true };
}

/** The tests' requirement lists the repository has, read like requirements.txt, sorted. */
function testRequirementLists(files: ReadonlyMap<string, Buffer>): { path: string; requirements: (text: string) => string[] }[] {
  return [...files.keys()].filter((path) => TEST_REQUIREMENT_LISTS.test(path)).sort(compareStrings).map((path) => ({ path, requirements: requirementsTxtRequirements }));
}

/**
 * The names the repository's own code may be imported by, anywhere in it: its folders and its
 * `.py` files' stems (a test helper `tests/helpers.py` imported as `helpers`).
 */
function repositoryNames(files: ReadonlyMap<string, Buffer>): Set<string> {
  const names = new Set<string>();
  for (const path of files.keys()) {
    const parts = path.split('/');
    const name = parts.pop() ?? '';
    for (const folder of parts) names.add(folder);
    if (name.endsWith('.py')) names.add(name.slice(0, -'.py'.length));
  }
  return names;
}

/**
 * What the Python image itself holds for the record stage's tracer (sandbox-images/python: Debian's
 * python3-pytest and what it depends on): a test file importing one needs no dependency image.
 */
const IMAGE_PROVIDED: ReadonlySet<string> = new Set(['pytest', 'pluggy', 'iniconfig', 'packaging', 'py']);

/** The standard library's top-level modules on Python 3.11 (`sys.stdlib_module_names`, private ones left out). */
const STANDARD_LIBRARY: ReadonlySet<string> = new Set([
  'abc', 'aifc', 'antigravity', 'argparse', 'array', 'ast', 'asynchat', 'asyncio', 'asyncore',
  'atexit', 'audioop', 'base64', 'bdb', 'binascii', 'bisect', 'builtins', 'bz2', 'cProfile',
  'calendar', 'cgi', 'cgitb', 'chunk', 'cmath', 'cmd', 'code', 'codecs', 'codeop', 'collections',
  'colorsys', 'compileall', 'concurrent', 'configparser', 'contextlib', 'contextvars', 'copy',
  'copyreg', 'crypt', 'csv', 'ctypes', 'curses', 'dataclasses', 'datetime', 'dbm', 'decimal',
  'difflib', 'dis', 'distutils', 'doctest', 'email', 'encodings', 'ensurepip', 'enum', 'errno',
  'faulthandler', 'fcntl', 'filecmp', 'fileinput', 'fnmatch', 'fractions', 'ftplib', 'functools',
  'gc', 'genericpath', 'getopt', 'getpass', 'gettext', 'glob', 'graphlib', 'grp', 'gzip',
  'hashlib', 'heapq', 'hmac', 'html', 'http', 'idlelib', 'imaplib', 'imghdr', 'imp', 'importlib',
  'inspect', 'io', 'ipaddress', 'itertools', 'json', 'keyword', 'lib2to3', 'linecache', 'locale',
  'logging', 'lzma', 'mailbox', 'mailcap', 'marshal', 'math', 'mimetypes', 'mmap', 'modulefinder',
  'msilib', 'msvcrt', 'multiprocessing', 'netrc', 'nis', 'nntplib', 'nt', 'ntpath', 'nturl2path',
  'numbers', 'opcode', 'operator', 'optparse', 'os', 'ossaudiodev', 'pathlib', 'pdb', 'pickle',
  'pickletools', 'pipes', 'pkgutil', 'platform', 'plistlib', 'poplib', 'posix', 'posixpath',
  'pprint', 'profile', 'pstats', 'pty', 'pwd', 'py_compile', 'pyclbr', 'pydoc', 'pydoc_data',
  'pyexpat', 'queue', 'quopri', 'random', 're', 'readline', 'reprlib', 'resource', 'rlcompleter',
  'runpy', 'sched', 'secrets', 'select', 'selectors', 'shelve', 'shlex', 'shutil', 'signal',
  'site', 'smtpd', 'smtplib', 'sndhdr', 'socket', 'socketserver', 'spwd', 'sqlite3', 'sre_compile',
  'sre_constants', 'sre_parse', 'ssl', 'stat', 'statistics', 'string', 'stringprep', 'struct',
  'subprocess', 'sunau', 'symtable', 'sys', 'sysconfig', 'syslog', 'tabnanny', 'tarfile',
  'telnetlib', 'tempfile', 'termios', 'textwrap', 'this', 'threading', 'time', 'timeit', 'tkinter',
  'token', 'tokenize', 'tomllib', 'trace', 'traceback', 'tracemalloc', 'tty', 'turtle',
  'turtledemo', 'types', 'typing', 'unicodedata', 'unittest', 'urllib', 'uu', 'uuid', 'venv',
  'warnings', 'wave', 'weakref', 'webbrowser', 'winreg', 'winsound', 'wsgiref', 'xdrlib', 'xml',
  'xmlrpc', 'zipapp', 'zipfile', 'zipimport', 'zlib', 'zoneinfo'
]);

/**
 * The metadata an installed distribution carries beside its package (a repository that is a
 * `site-packages` folder, as Debian's `python3-*` packages install one), read after the manifests.
 */
const INSTALLED_METADATA: readonly { pattern: RegExp; requirements: (text: string) => string[] }[] = [
  { pattern: /^[^/]+\.egg-info\/requires\.txt$/, requirements: eggInfoRequirements },
  { pattern: /^[^/]+\.dist-info\/METADATA$/, requirements: distInfoRequirements },
];

/** The names the manifests require on the image's Python, with their manifest, first manifest first. */
function requirementsOf(files: ReadonlyMap<string, Buffer>): Generator<{ name: string; from: string }> {
  const metadata = [...files.keys()].sort(compareStrings).flatMap((path) => INSTALLED_METADATA.filter((m) => m.pattern.test(path)).map((m) => ({ path, requirements: m.requirements })));
  return requirementsIn([...MANIFESTS, ...metadata], files);
}

/** The names the given manifests require, with their manifest, in the manifests' order. */
function* requirementsIn(manifests: readonly { path: string; requirements: (text: string) => string[] }[], files: ReadonlyMap<string, Buffer>): Generator<{ name: string; from: string }> {
  for (const manifest of manifests) {
    const content = files.get(manifest.path);
    if (content === undefined) continue;
    for (const requirement of manifest.requirements(content.toString('utf8').replace(/^\uFEFF/, ''))) {
      const name = requirementName(requirement);
      if (name !== null) yield { name, from: manifest.path };
    }
  }
}

/** An egg-info `requires.txt`: the requirements above its first `[extra]` or `[:marker]` section (those are conditional). */
function eggInfoRequirements(text: string): string[] {
  const unconditional = text.split(/^\[/m)[0] ?? '';
  return requirementsTxtRequirements(unconditional);
}

/** A dist-info `METADATA`: its `Requires-Dist:` headers (`name (>=1); marker`), markers kept for `requirementName`. */
function distInfoRequirements(text: string): string[] {
  const headers = text.split(/\r?\n\r?\n/)[0] ?? '';
  return [...headers.matchAll(/^Requires-Dist:[ \t]*(.+)$/gm)].map((m) => (m[1] ?? '').replace(/\(([^)]*)\)/, '$1').trim());
}

/** Where a dependency found by its import comes from (`DeclaredDependency.from`). */
const UNDECLARED = 'imported by the code; no manifest declares it';

/**
 * The distribution providing the top-level module `module`, which no manifest declares: the one
 * the import-name table maps to it (`yaml` is pyyaml's), else the module's own name (`six`); null
 * for a module of the repository itself (`<module>.py` or `<module>/` up to two folders down,
 * `src/` layouts included) or a private one (`_x`).
 */
function forModule(module: string, files: ReadonlyMap<string, Buffer>): DeclaredDependency | null {
  if (module.startsWith('_') || !/^[A-Za-z0-9_]+$/.test(module)) return null;
  const own = new RegExp(`^(?:[^/]+/){0,2}${module}(?:\\.py|/)`);
  for (const path of files.keys()) if (path.endsWith('.py') && own.test(path)) return null;
  const distribution = [...IMPORT_NAMES].find(([, modules]) => modules.includes(module))?.[0] ?? module.replace(/_/g, '-');
  return { ...declaredDependency(distribution, UNDECLARED), modules: [module] };
}

/** One dependency as the repository names it: its Debian package (or why none) and import names. */
function declaredDependency(name: string, from: string): DeclaredDependency {
  const install = debianPackage(name);
  const modules = importNames(name);
  if (install !== null) return { name, from, install, modules };
  return { name, from, install: null, why: `'${name}' makes no Debian package name (python3-<lower-case letters, digits, '.', '+', '-'>): install it into a custom image`, modules };
}

/** PEP 503: lower case, each run of `-`, `_` and `.` one `-`. */
function normalizedName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/**
 * `python3-<name>` in lower case, `_` as `-` and a leading `python-` dropped (python-dateutil is
 * python3-dateutil); dots stay, as Debian names namespace packages (`jaraco.text` is
 * python3-jaraco.text). Null when that is no package name.
 */
function debianPackage(name: string): string | null {
  const base = name.toLowerCase().replace(/[-_]+/g, '-').replace(/^python-/, '');
  const debian = DEBIAN_PACKAGES.get(normalizedName(name)) ?? `python3-${base}`;
  const wellFormed = /^[a-z0-9]([a-z0-9.+-]*[a-z0-9])?$/.test(base) && DEBIAN_PACKAGE.test(debian) && DEPENDENCY_PACKAGE.test(debian);
  return wellFormed ? debian : null;
}

/**
 * The top-level names code imports `name` by: the table's, else the name with `-` as `_` (without
 * a leading `python-`), in lower case and, where it differs, as the repository spells it (its part
 * before a dot: `jaraco.text` is imported from `jaraco`).
 */
function importNames(name: string): string[] {
  const known = IMPORT_NAMES.get(normalizedName(name));
  if (known) return [...known];
  const spelled = (name.replace(/^python[-_.]/i, '').split('.')[0] ?? name).replace(/-/g, '_');
  return [...new Set([normalizedName(spelled).replace(/-/g, '_'), spelled])];
}

/** PEP 508: the name, optional `[extras]`, then a version, a direct reference or markers. */
const REQUIREMENT = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*([^;]*)(?:;(.*))?$/s;

/**
 * The distribution name of a PEP 508 requirement, or null when it is none (a URL, a path, an
 * option) or its markers leave it out on the image's Python (Python 2 only, an extra).
 */
function requirementName(requirement: string): string | null {
  const match = REQUIREMENT.exec(requirement);
  const [, name, rest = '', marker] = match ?? [];
  if (name === undefined || !/^([<>=!~(@]|$)/.test(rest.trim())) return null;
  return marker !== undefined && markerExcludes(marker) ? null : name;
}

// ---- environment markers ------------------------------------------------------------------------

/** The image's Python (Debian bookworm), as markers compare it. */
const MARKER_VARIABLES: ReadonlyMap<string, { value: string; version: boolean }> = new Map([
  ['python_version', { value: '3.11', version: true }],
  ['python_full_version', { value: '3.11.2', version: true }],
  // no extra is installed: `extra == "test"` is false
  ['extra', { value: '', version: false }],
]);

/** A marker's truth on the image: unknown (`undefined`) for what it does not settle (platforms). */
type Truth = boolean | undefined;

interface MarkerParser {
  tokens: string[];
  at: number;
}

const MARKER_TOKEN = /\s*("[^"]*"|'[^']*'|\(|\)|===|==|!=|<=|>=|~=|<|>|not\s+in\b|in\b|and\b|or\b|[A-Za-z_][A-Za-z0-9_.]*)/y;

/** True when `marker` is surely false on the image; a marker it cannot read keeps the requirement. */
function markerExcludes(marker: string): boolean {
  const tokens: string[] = [];
  let end = 0;
  MARKER_TOKEN.lastIndex = 0;
  for (let token = MARKER_TOKEN.exec(marker); token; token = MARKER_TOKEN.exec(marker)) {
    tokens.push(token[1] ?? '');
    end = MARKER_TOKEN.lastIndex;
  }
  if (marker.slice(end).trim() !== '') return false;
  const parser: MarkerParser = { tokens, at: 0 };
  const truth = orMarker(parser);
  return truth === false && parser.at === tokens.length;
}

function orMarker(parser: MarkerParser): Truth {
  let truth = andMarker(parser);
  while (parser.tokens[parser.at] === 'or') {
    parser.at += 1;
    const right = andMarker(parser);
    truth = truth === true || right === true ? true : truth === false && right === false ? false : undefined;
  }
  return truth;
}

function andMarker(parser: MarkerParser): Truth {
  let truth = markerAtom(parser);
  while (parser.tokens[parser.at] === 'and') {
    parser.at += 1;
    const right = markerAtom(parser);
    truth = truth === false || right === false ? false : truth === true && right === true ? true : undefined;
  }
  return truth;
}

function markerAtom(parser: MarkerParser): Truth {
  if (parser.tokens[parser.at] === '(') {
    parser.at += 1;
    const truth = orMarker(parser);
    if (parser.tokens[parser.at] === ')') parser.at += 1;
    return truth;
  }
  const [left = '', op = '', right = ''] = parser.tokens.slice(parser.at, parser.at + 3);
  parser.at += 3;
  return markerComparison(left, op, right);
}

const FLIPPED: Readonly<Record<string, string>> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '==': '==', '!=': '!=' };

/** `variable op "literal"` (either way round) on the image; undefined for other variables. */
function markerComparison(left: string, op: string, right: string): Truth {
  const quoted = (token: string): string | undefined => (/^["']/.test(token) ? token.slice(1, -1) : undefined);
  const [variable, wanted, operator] = MARKER_VARIABLES.has(left)
    ? [MARKER_VARIABLES.get(left), quoted(right), op]
    : [MARKER_VARIABLES.get(right), quoted(left), FLIPPED[op]];
  return variable && wanted !== undefined && operator !== undefined ? compareMarkerValues(variable, operator, wanted) : undefined;
}

function compareMarkerValues(variable: { value: string; version: boolean }, op: string, wanted: string): Truth {
  if (!variable.version) return op === '==' ? variable.value === wanted : op === '!=' ? variable.value !== wanted : undefined;
  const order = compareVersions(variable.value, wanted);
  switch (op) {
    case '==':
      return versionMatches(variable.value, wanted);
    case '!=':
      return !versionMatches(variable.value, wanted);
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
    case '~=':
      return order >= 0 && versionMatches(variable.value, `${wanted.split('.').slice(0, -1).join('.')}.*`);
    default:
      return undefined;
  }
}

/** `==` of PEP 440 for release numbers: equal when padded with zeros, or a prefix for `3.*`. */
function versionMatches(actual: string, wanted: string): boolean {
  if (!wanted.endsWith('.*')) return compareVersions(actual, wanted) === 0;
  const prefix = wanted.slice(0, -2).split('.');
  return compareVersions(actual.split('.').slice(0, prefix.length).join('.'), prefix.join('.')) === 0;
}

function compareVersions(a: string, b: string): number {
  const parts = (v: string): number[] => v.split('.').map((p) => Number.parseInt(p, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

// ---- reading Python and TOML source -------------------------------------------------------------

/**
 * Walks `text` from `start` as Python and TOML lex it: string literals (either quote, tripled or
 * not, backslash escapes) go to `onString`, `#` comments are skipped, and each other character goes
 * to `onChar`, which stops the walk by returning true. Returns where it stopped (the text's length
 * when nothing stopped it). An unterminated string ends at its line, or at the text's end.
 */
function walk(text: string, start: number, onChar: (char: string) => boolean, onString: (value: string) => void = () => undefined): number {
  let i = start;
  while (i < text.length) {
    const char = text.charAt(i);
    if (char === '#') {
      const newline = text.indexOf('\n', i);
      i = newline < 0 ? text.length : newline;
    } else if (char === '"' || char === "'") {
      i = readString(text, i, onString);
    } else if (onChar(char)) {
      return i;
    } else {
      i += 1;
    }
  }
  return text.length;
}

/** Reads the string literal opening at `at` into `onString`; returns the index after it. */
function readString(text: string, at: number, onString: (value: string) => void): number {
  const quote = text.charAt(at);
  const delimiter = text.startsWith(quote.repeat(3), at) ? quote.repeat(3) : quote;
  let value = '';
  let i = at + delimiter.length;
  while (i < text.length && !text.startsWith(delimiter, i) && !(delimiter.length === 1 && text.charAt(i) === '\n')) {
    // an escape keeps the escaped character: requirement strings need no more
    const escaped = text.charAt(i) === '\\';
    value += text.charAt(escaped ? i + 1 : i);
    i += escaped ? 2 : 1;
  }
  onString(value);
  return text.startsWith(delimiter, i) ? i + delimiter.length : Math.min(i, text.length);
}

const OPENERS = '[({';
const CLOSERS = '])}';

/**
 * The string items of the bracketed list or tuple opening at `open` (those standing alone between
 * commas: not `'a' + b`, not the arguments of a call inside it), and the index after its end.
 */
function readList(text: string, open: number): { items: string[]; end: number } {
  const items: string[] = [];
  let depth = 0;
  let previous = '';
  let pending: string | null = null;
  const onChar = (char: string): boolean => {
    if (/\s/.test(char)) return false;
    if (pending !== null && depth === 1 && (char === ',' || CLOSERS.includes(char))) items.push(pending);
    pending = null;
    if (OPENERS.includes(char)) depth += 1;
    else if (CLOSERS.includes(char)) depth -= 1;
    previous = char;
    return depth <= 0;
  };
  const onString = (value: string): void => {
    pending = depth === 1 && (previous === ',' || OPENERS.includes(previous)) ? value : null;
    previous = '"';
  };
  const end = walk(text, open, onChar, onString);
  if (pending !== null && depth === 1) items.push(pending);
  return { items, end: end + 1 };
}

/** One `key = value` of a TOML text, with the table it is in (`tool.poetry.dependencies`). */
interface TomlEntry {
  table: string;
  key: string;
  value: string;
}

const TOML_KEY = /[ \t]*("[^"\n]*"|'[^'\n]*'|[A-Za-z0-9_.-]+)[ \t]*=/y;

/** The entries of a TOML text, each value as written (a multi-line array whole); tolerant of anything else. */
function tomlEntries(text: string): TomlEntry[] {
  const entries: TomlEntry[] = [];
  let table = '';
  let i = 0;
  while (i < text.length) {
    const lineEnd = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
    const line = text.slice(i, lineEnd).replace(/#.*$/, '').trim();
    TOML_KEY.lastIndex = i;
    const key = line.startsWith('[') ? null : TOML_KEY.exec(text);
    if (line.startsWith('[')) table = /^\[([^[\]]+)\]$/.exec(line)?.[1]?.replace(/["'\s]/g, '') ?? '';
    if (!key) {
      i = lineEnd + 1;
      continue;
    }
    const start = i + key[0].length;
    let depth = 0;
    const end = walk(text, start, (char) => {
      depth += OPENERS.includes(char) ? 1 : CLOSERS.includes(char) ? -1 : 0;
      return char === '\n' && depth <= 0;
    });
    entries.push({ table, key: (key[1] ?? '').replace(/^["']|["']$/g, ''), value: text.slice(start, end).trim() });
    i = end + 1;
  }
  return entries;
}

// ---- the manifests ------------------------------------------------------------------------------

/**
 * `[project] dependencies` (PEP 621) and the keys of `[tool.poetry.dependencies]` (an optional one,
 * there only for an extra, left out; its `markers` kept).
 */
function pyprojectRequirements(text: string): string[] {
  const requirements: string[] = [];
  for (const { table, key, value } of tomlEntries(text)) {
    if (table === 'project' && key === 'dependencies' && value.startsWith('[')) requirements.push(...readList(value, 0).items);
    if (table !== 'tool.poetry.dependencies' || /\boptional\s*=\s*true\b/.test(value)) continue;
    const markers = /\bmarkers\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(value);
    requirements.push(markers ? `${key}; ${markers[1] ?? markers[2] ?? ''}` : key);
  }
  return requirements;
}

/**
 * `[options] install_requires` of setup.cfg as setuptools reads it: one requirement a line when the
 * value spans lines (indented continuations), else `;`-separated; comment lines left out.
 */
function setupCfgRequirements(text: string): string[] {
  const lines = text.split(/\r?\n/);
  let section = '';
  for (const [n, line] of lines.entries()) {
    const header = /^\[\s*([^\]]*?)\s*\]/.exec(line);
    if (header) section = header[1] ?? '';
    const key = /^install_requires\s*[=:](.*)$/i.exec(line);
    if (section !== 'options' || !key) continue;
    const continuation = lines.slice(n + 1);
    const last = continuation.findIndex((l) => l.trim() !== '' && !/^\s/.test(l));
    const value = [key[1] ?? '', ...continuation.slice(0, last < 0 ? undefined : last)]
      .map((l) => l.trim())
      .filter((l) => l !== '' && !/^[#;]/.test(l));
    const items = value.length === 1 && (key[1] ?? '').trim() !== '' ? (value[0] ?? '').split(';') : value;
    return items.map((item) => item.replace(/\s#.*$/, '').trim()).filter((item) => item !== '');
  }
  return [];
}

const INSTALL_REQUIRES = /\binstall_requires\s*=\s*|["']install_requires["']\s*:\s*/g;

/**
 * The string literals of setup.py's `install_requires`: a list (or tuple) written in the call or a
 * dict, or a module-level variable assigned one and passed by name (`install_requires=REQUIRES`).
 */
function setupPyRequirements(text: string): string[] {
  const requirements: string[] = [];
  for (const match of text.matchAll(INSTALL_REQUIRES)) {
    const at = match.index + match[0].length;
    const variable = /^[A-Za-z_]\w*\b(?!\s*[.(])/.exec(text.slice(at, at + 200))?.[0];
    if (OPENERS.includes(text.charAt(at))) requirements.push(...readList(text, at).items);
    else if (variable !== undefined) requirements.push(...listAssignedTo(text, variable));
  }
  return requirements;
}

/** The items of the list a module-level `name = [...]` assigns, or none. */
function listAssignedTo(text: string, name: string): string[] {
  const assignment = new RegExp(`^${name}\\s*=\\s*(?=[[(])`, 'm').exec(text);
  return assignment ? readList(text, assignment.index + assignment[0].length).items : [];
}

/** requirements.txt: one requirement a line, `\` continuations, `#` comments; options (`-r`, `-e`, `--index-url`) left out. */
function requirementsTxtRequirements(text: string): string[] {
  return text
    .replace(/\\\r?\n/g, '')
    .split(/\r?\n/)
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('-'));
}

// ---- record errors ------------------------------------------------------------------------------

/**
 * The top-level module a record error says is missing (`six` of "No module named 'six.moves'"), or
 * null: "cannot import name" is a module that is there, and "'x' is not a package" names one that is.
 */
function missingModule(message: string): string | null {
  const match = /No module named ['"]?([A-Za-z_][\w.]*)['"]?(;[^\n]*is not a package)?/.exec(message);
  if (!match || match[2] !== undefined) return null;
  return (match[1] ?? '').split('.')[0] || null;
}

// ---- the installer ------------------------------------------------------------------------------

const APT_INSTALL = 'DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends';

/**
 * Debian packages with apt, as the `python` image installs its own (sandbox-images/python/Dockerfile).
 * Names are what apt installs, so pinning only sorts them. Each package is installed by its own
 * apt-get: one that Debian lacks is listed as missing and does not stop the others. When `apt-get
 * update` fails there are no package lists (the image keeps none), so every install fails and every
 * package is listed; the layer still builds.
 */
const aptInstaller: DependencyInstaller = Object.freeze({
  tool: 'apt',
  // 2: a package named like the one asked but for dashes and dots is installed in its place (aptNamesake)
  recipe: '2',
  pin: (requested: readonly string[]) => Promise.resolve([...new Set(requested)].sort(compareStrings)),
  layer: async (packages: readonly string[]) => ({ dockerfile: aptLayer(packages), files: [] }),
});

/** The RUN line installing `packages`; throws `InvalidArgumentError` on a name that is no Debian package name. */
function aptLayer(packages: readonly string[]): string {
  for (const name of packages) {
    if (!DEBIAN_PACKAGE.test(name) || !DEPENDENCY_PACKAGE.test(name)) {
      throw new InvalidArgumentError('packages', `'${name}' is not a Debian package name (lower-case letters, digits, '.', '+', '-')`);
    }
  }
  const missing = MISSING_DEPENDENCIES_FILE;
  const steps = [
    `mkdir -p ${posix.dirname(missing)} && : > ${missing}`,
    ...(packages.length === 0 ? [] : [`{ apt-get update || echo 'apt-get update failed: the packages are listed as missing' >&2; }`]),
    ...packages.map((name) => `{ ${APT_INSTALL} ${name} || ${aptNamesake(name)} || echo ${name} >> ${missing}; }`),
    'rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb /usr/share/doc /usr/share/man',
    `chmod a+r ${missing}`,
  ];
  return `RUN ${steps.join(' \\\n && ')}\n`;
}

/**
 * The shell that installs the one Debian package whose name is `name` but for its dashes and dots
 * (`python3-jsonpointer` is Debian's `python3-json-pointer`), when there is exactly one; fails
 * otherwise. `name` is a checked Debian package name, safe unquoted.
 */
function aptNamesake(name: string): string {
  const squashed = name.replace(/[-.]/g, '');
  const find = `apt-cache pkgnames python3- | awk -v want=${squashed} '{ s = $0; gsub(/[-.]/, "", s); if (s == want) print $0 }'`;
  return `{ alt=$(${find}); [ -n "$alt" ] && [ "$(echo "$alt" | wc -l)" = 1 ] && ${APT_INSTALL} "$alt"; }`;
}

/** Python's dependency rules: manifests read statically, Debian packages installed with apt. */
export const pythonDependencyRules: DependencyRules = Object.freeze({
  installer: aptInstaller,
  declared,
  packageManifests: ['pyproject.toml', 'setup.cfg', 'setup.py'],
  missingModule,
  forModule,
});
