// The types a target's parameters are declared with, read with the `typescript` parser: a
// TypeScript source's own annotations, else the declaration file beside a JavaScript module
// (`index.d.ts` for `index.js`, `.d.mts` for `.mjs`, `.d.cts` for `.cjs`; the package.json
// `types`/`typings` file for the package's main module), else JSDoc `@param {T}` tags. Type names
// are resolved to the interfaces, type aliases and enums of the same file and of the files it
// imports by a relative path. Overloads: each parameter takes the union of its overloads' types.
//
// A type becomes a SHAPE, plain JSON that inputs.mjs builds values from:
//   {k:'number'|'string'|'boolean'|'bigint'|'null'|'undefined'|'any'}
//   {k:'function', params: [SHAPE...]}    function types and methods (`params`: the parameters'
//                                         types, `this` left out; a rest parameter's is one value's)
//   {k:'literal', v}                      a string, number or boolean literal type
//   {k:'array', of: SHAPE}                T[], Array<T>, ReadonlyArray<T>, Iterable<T>
//   {k:'tuple', of: [SHAPE...]}
//   {k:'object', props: [{name, optional, type: SHAPE}]}   object literal types, interfaces
//   {k:'record', of: SHAPE}               Record<string, T>, index signatures
//   {k:'union', of: [SHAPE...]}
//   {k:'builtin', name, of: [SHAPE...]}   Map, Set, Date, RegExp, typed arrays, ArrayBuffer, DataView, Buffer
import fs from 'node:fs';
import path from 'node:path';
import { findFunction } from './mutants.mjs';

/** Built-in classes values can be made of (codec.mjs encodes them all). */
export const BUILTIN_TYPES = new Set([
  'Map', 'ReadonlyMap', 'Set', 'ReadonlySet', 'Date', 'RegExp', 'ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Buffer',
  'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array',
  'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array',
]);

const ANY = { k: 'any' };
const MAX_DEPTH = 5;

function scriptKind(ts, file) {
  if (/\.tsx$/.test(file)) return ts.ScriptKind.TSX;
  if (/\.[mc]?ts$/.test(file)) return ts.ScriptKind.TS;
  if (/\.jsx$/.test(file)) return ts.ScriptKind.JSX;
  return ts.ScriptKind.JS;
}

/** A parser with a cache of the files it read (one per record run). */
export function createTypeReader(ts) {
  const files = new Map();
  const parse = (file) => {
    if (!files.has(file)) {
      let sf = null;
      try {
        sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, scriptKind(ts, file));
      } catch {
        sf = null;
      }
      files.set(file, sf);
    }
    return files.get(file);
  };
  return { ts, parse };
}

/** Declaration files that may describe the JavaScript module `file` (repository-absolute), nearest first. */
export function declarationFilesFor(repoRoot, file) {
  const stem = file.replace(/\.[mc]?jsx?$/, '');
  const out = [];
  if (/\.mjs$/.test(file)) out.push(`${stem}.d.mts`);
  if (/\.cjs$/.test(file)) out.push(`${stem}.d.cts`);
  out.push(`${stem}.d.ts`);
  // the package's declared types, when this module is its main one
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
    const types = pkg.types ?? pkg.typings;
    const mains = [pkg.main ?? 'index.js', typeof pkg.exports === 'string' ? pkg.exports : pkg.exports?.['.']?.default ?? pkg.exports?.['.']?.import ?? pkg.exports?.['.']?.require ?? pkg.exports?.import ?? pkg.exports?.require]
      .filter((m) => typeof m === 'string')
      .map((m) => path.resolve(repoRoot, m));
    if (typeof types === 'string' && mains.some((m) => m === file || m.replace(/\.[mc]?js$/, '') === stem)) out.push(path.resolve(repoRoot, types));
  } catch {
    // no package.json, or not JSON
  }
  return [...new Set(out)].filter((f) => fs.existsSync(f));
}

function hasModifier(ts, node, kind) {
  return (ts.canHaveModifiers?.(node) ? ts.getModifiers(node) : node.modifiers)?.some((m) => m.kind === kind) ?? false;
}

/** The signatures ({params, node, returns}: `returns` the return type's node, if declared) a declaration file gives the export path `target`. */
function declaredSignatures(reader, sf, target) {
  const { ts } = reader;
  const parts = String(target).split('.');
  let name = parts[0];
  const statements = sf.statements;
  if (name === 'default') {
    const fn = statements.filter((s) => ts.isFunctionDeclaration(s) && hasModifier(ts, s, ts.SyntaxKind.DefaultKeyword));
    if (fn.length > 0 && parts.length === 1) return fn.map((f) => ({ params: f.parameters, node: f, returns: f.type }));
    const assignment = statements.find((s) => ts.isExportAssignment(s) && ts.isIdentifier(s.expression));
    if (assignment === undefined) return [];
    name = assignment.expression.text;
  }
  const named = (s) => s.name !== undefined && ts.isIdentifier(s.name) && s.name.text === name;
  if (parts.length === 1) {
    const out = statements.filter((s) => ts.isFunctionDeclaration(s) && named(s)).map((f) => ({ params: f.parameters, node: f, returns: f.type }));
    for (const s of statements) {
      if (!ts.isVariableStatement(s)) continue;
      for (const d of s.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && d.name.text === name && d.type !== undefined && ts.isFunctionTypeNode(d.type)) out.push({ params: d.type.parameters, node: s, returns: d.type.type });
      }
    }
    return out;
  }
  const member = parts[parts.length - 1];
  const out = [];
  for (const s of statements) {
    if (!((ts.isClassDeclaration(s) || ts.isInterfaceDeclaration(s)) && named(s))) continue;
    for (const m of s.members) {
      if ((ts.isMethodDeclaration(m) || ts.isMethodSignature(m)) && m.name !== undefined && m.name.getText(sf) === member) out.push({ params: m.parameters, node: m, returns: m.type });
    }
  }
  for (const s of statements) {
    if (!(ts.isModuleDeclaration(s) && named(s) && s.body && ts.isModuleBlock(s.body))) continue;
    for (const f of s.body.statements) if (ts.isFunctionDeclaration(f) && f.name?.text === member) out.push({ params: f.parameters, node: f, returns: f.type });
  }
  return out;
}

/** Types declared in `sf` by name, with those its relative imports name (read when asked). */
function scopeOf(reader, sf) {
  const { ts } = reader;
  const local = new Map();
  const imported = new Map();
  for (const s of sf.statements) {
    if ((ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s) || ts.isEnumDeclaration(s)) && s.name) {
      if (!local.has(s.name.text)) local.set(s.name.text, []);
      local.get(s.name.text).push(s);
    }
    if (ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && s.moduleSpecifier.text.startsWith('.')) {
      const bindings = s.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const el of bindings.elements) imported.set(el.name.text, { spec: s.moduleSpecifier.text, name: (el.propertyName ?? el.name).text });
      }
    }
  }
  const lookup = (name) => {
    if (local.has(name)) return { decls: local.get(name), scope };
    const imp = imported.get(name);
    if (imp === undefined) return null;
    const base = path.resolve(path.dirname(sf.fileName), imp.spec).replace(/\.[mc]?js$/, '');
    for (const candidate of ['.ts', '.d.ts', '.tsx', '.mts', '.d.mts', '/index.ts', '/index.d.ts']) {
      const other = reader.parse(base + candidate);
      if (other) return scopeOf(reader, other).lookupLocal(imp.name);
    }
    return null;
  };
  const scope = { lookup, lookupLocal: (name) => (local.has(name) ? { decls: local.get(name), scope } : null) };
  return scope;
}

const JSDOC_NAMES = { String: 'string', Number: 'number', Boolean: 'boolean', Object: 'object', Array: 'array', Function: 'function', BigInt: 'bigint' };

/** The SHAPE of a type node; `env` maps type parameters to shapes. */
export function shapeOf(reader, node, scope, env = new Map(), depth = 0) {
  const { ts } = reader;
  if (node === undefined || node === null || depth > MAX_DEPTH) return ANY;
  const K = ts.SyntaxKind;
  switch (node.kind) {
    case K.NumberKeyword: return { k: 'number' };
    case K.StringKeyword: return { k: 'string' };
    case K.BooleanKeyword: return { k: 'boolean' };
    case K.BigIntKeyword: return { k: 'bigint' };
    case K.UndefinedKeyword:
    case K.VoidKeyword: return { k: 'undefined' };
    case K.NullKeyword: return { k: 'null' };
    case K.ObjectKeyword: return { k: 'object', props: [] };
    case K.AnyKeyword:
    case K.UnknownKeyword:
    case K.JSDocAllType:
    case K.JSDocUnknownType: return ANY;
    default: break;
  }
  const next = (n, e = env) => shapeOf(reader, n, scope, e, depth + 1);
  if (ts.isParenthesizedTypeNode(node) || ts.isJSDocOptionalType?.(node) || ts.isJSDocNonNullableType?.(node)) return next(node.type);
  if (ts.isJSDocNullableType?.(node)) return { k: 'union', of: [next(node.type), { k: 'null' }] };
  if (ts.isTypeOperatorNode(node)) return node.operator === K.ReadonlyKeyword ? next(node.type) : ANY;
  if (ts.isLiteralTypeNode(node)) {
    const lit = node.literal;
    if (ts.isStringLiteral(lit)) return { k: 'literal', v: lit.text };
    if (ts.isNumericLiteral(lit)) return { k: 'literal', v: Number(lit.text) };
    if (ts.isPrefixUnaryExpression(lit) && ts.isNumericLiteral(lit.operand)) return { k: 'literal', v: -Number(lit.operand.text) };
    if (lit.kind === K.TrueKeyword) return { k: 'literal', v: true };
    if (lit.kind === K.FalseKeyword) return { k: 'literal', v: false };
    if (lit.kind === K.NullKeyword) return { k: 'null' };
    return ANY;
  }
  if (ts.isTemplateLiteralTypeNode?.(node)) return { k: 'string' };
  if (ts.isArrayTypeNode(node)) return { k: 'array', of: next(node.elementType) };
  if (ts.isTupleTypeNode(node)) {
    return { k: 'tuple', of: node.elements.map((e) => (ts.isNamedTupleMember?.(e) ? next(e.type) : ts.isOptionalTypeNode(e) ? next(e.type) : ts.isRestTypeNode(e) ? ANY : next(e))) };
  }
  if (ts.isUnionTypeNode(node)) return { k: 'union', of: node.types.map((t) => next(t)) };
  if (ts.isIntersectionTypeNode(node)) {
    const parts = node.types.map((t) => next(t));
    const objects = parts.filter((p) => p.k === 'object');
    if (objects.length === parts.length) return { k: 'object', props: objects.flatMap((o) => o.props) };
    return parts.find((p) => p.k !== 'object' && p.k !== 'any') ?? parts[0] ?? ANY;
  }
  if (ts.isFunctionTypeNode(node) || ts.isConstructorTypeNode(node) || ts.isJSDocFunctionType?.(node)) return functionShape(ts, node.parameters, next);
  if (ts.isTypeLiteralNode(node)) return objectShape(reader, node.members, scope, env, depth);
  if (ts.isTypeReferenceNode(node)) {
    const name = ts.isIdentifier(node.typeName) ? node.typeName.text : node.typeName.getText();
    const args = node.typeArguments ?? [];
    if (env.has(name)) return env.get(name);
    if (JSDOC_NAMES[name] !== undefined && args.length === 0) {
      const k = JSDOC_NAMES[name];
      return k === 'object' ? { k: 'object', props: [] } : k === 'array' ? { k: 'array', of: ANY } : { k };
    }
    if (name === 'Array' || name === 'ReadonlyArray' || name === 'Iterable' || name === 'ArrayLike') return { k: 'array', of: args[0] ? next(args[0]) : ANY };
    if (name === 'TemplateStringsArray') return { k: 'array', of: { k: 'string' } };
    if (name === 'Record') return { k: 'record', of: args[1] ? next(args[1]) : ANY };
    if (name === 'Partial' || name === 'Required' || name === 'Readonly' || name === 'NonNullable') {
      const inner = args[0] ? next(args[0]) : ANY;
      return name === 'Partial' && inner.k === 'object' ? { k: 'object', props: inner.props.map((p) => ({ ...p, optional: true })) } : inner;
    }
    if (BUILTIN_TYPES.has(name)) return { k: 'builtin', name: name.replace(/^Readonly/, '').replace(/^SharedArrayBuffer$/, 'ArrayBuffer'), of: args.map((a) => next(a)) };
    const found = scope.lookup(name);
    if (found === null) return ANY;
    const decl = found.decls[0];
    const inner = new Map(env);
    (decl.typeParameters ?? []).forEach((p, i) => inner.set(p.name.text, args[i] ? next(args[i]) : p.default ? next(p.default) : ANY));
    const deeper = (n) => shapeOf(reader, n, found.scope, inner, depth + 1);
    if (ts.isTypeAliasDeclaration(decl)) return deeper(decl.type);
    if (ts.isEnumDeclaration(decl)) return enumShape(ts, decl);
    // interfaces: their members, merged over every declaration of the name, bases first
    const props = [];
    for (const d of found.decls) {
      for (const clause of d.heritageClauses ?? []) {
        for (const base of clause.types) {
          const shape = shapeOf(reader, ts.factory.createTypeReferenceNode(base.expression.getText(), base.typeArguments), found.scope, inner, depth + 1);
          if (shape.k === 'object') props.push(...shape.props);
        }
      }
      const own = objectShape(reader, d.members, found.scope, inner, depth);
      if (own.k === 'record') return own;
      props.push(...own.props);
    }
    return { k: 'object', props: dedupeProps(props) };
  }
  return ANY;
}

/** The SHAPE of a function type from its parameters (`shapeOfType` reads one parameter's type node). */
function functionShape(ts, parameters, shapeOfType) {
  const params = [];
  for (const p of parameters ?? []) {
    if (ts.isIdentifier(p.name) && p.name.text === 'this') continue;
    const shape = shapeOfType(p.type);
    params.push(p.dotDotDotToken !== undefined ? (shape.k === 'array' ? shape.of : ANY) : shape);
  }
  return { k: 'function', params };
}

function dedupeProps(props) {
  const byName = new Map();
  for (const p of props) byName.set(p.name, p);
  return [...byName.values()];
}

function objectShape(reader, members, scope, env, depth) {
  const { ts } = reader;
  const props = [];
  let index = null;
  for (const m of members) {
    if (ts.isIndexSignatureDeclaration(m)) index = shapeOf(reader, m.type, scope, env, depth + 1);
    else if ((ts.isPropertySignature(m) || ts.isMethodSignature(m)) && m.name !== undefined && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name))) {
      const type = ts.isMethodSignature(m) ? functionShape(ts, m.parameters, (n) => shapeOf(reader, n, scope, env, depth + 1)) : shapeOf(reader, m.type, scope, env, depth + 1);
      props.push({ name: m.name.text, optional: m.questionToken !== undefined, type });
    }
  }
  if (props.length === 0 && index !== null) return { k: 'record', of: index };
  return { k: 'object', props };
}

function enumShape(ts, decl) {
  const of = [];
  let next = 0;
  for (const m of decl.members) {
    const init = m.initializer;
    if (init === undefined) of.push({ k: 'literal', v: next++ });
    else if (ts.isNumericLiteral(init)) {
      next = Number(init.text) + 1;
      of.push({ k: 'literal', v: Number(init.text) });
    } else if (ts.isStringLiteral(init)) of.push({ k: 'literal', v: init.text });
  }
  return of.length > 0 ? { k: 'union', of } : ANY;
}

/** Per position, the union of the signatures' parameter shapes (the `this` parameter left out; a rest parameter's is one value's); optional ones flagged. */
function mergeSignatures(reader, signatures, scope, env) {
  const { ts } = reader;
  const positions = [];
  for (const params of signatures) {
    const real = params.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === 'this'));
    real.forEach((p, i) => {
      let type = p.type ?? ts.getJSDocType?.(p);
      const optional = p.questionToken !== undefined || p.initializer !== undefined || (type !== undefined && ts.isJSDocOptionalType?.(type)) || isOptionalJSDoc(ts, p);
      // a rest parameter: the shape of one of its values
      let shape = type === undefined ? null : shapeOf(reader, type, scope, env);
      if (p.dotDotDotToken !== undefined) shape = shape?.k === 'array' ? shape.of : ANY;
      (positions[i] ??= []).push({ shape, optional, rest: p.dotDotDotToken !== undefined, name: ts.isIdentifier(p.name) ? p.name.text : `arg${i}`, text: type === undefined ? null : type.getText() });
    });
  }
  return positions.map((alternatives) => {
    const shapes = alternatives.map((a) => a.shape).filter((s) => s !== null);
    const texts = [...new Set(alternatives.map((a) => a.text).filter((t) => t !== null))];
    return {
      name: alternatives[0].name,
      rest: alternatives.every((a) => a.rest),
      shape: shapes.length === 0 ? null : shapes.length === 1 ? shapes[0] : { k: 'union', of: shapes },
      optional: alternatives.some((a) => a.optional) || alternatives.length < signatures.length,
      text: texts.join(' | ') || null,
    };
  });
}

function isOptionalJSDoc(ts, param) {
  return (ts.getJSDocParameterTags?.(param) ?? []).some((tag) => tag.isBracketed);
}

function typeParamEnv(reader, fn, scope) {
  const env = new Map();
  for (const p of fn?.typeParameters ?? []) env.set(p.name.text, p.constraint ? shapeOf(reader, p.constraint, scope) : ANY);
  return env;
}

/** The `/** ... *\/` comments just before a declaration, as text (its examples are inputs too). */
function leadingDocs(sf, node) {
  const trivia = sf.text.slice(node.getFullStart(), node.getStart(sf));
  const docs = trivia.match(/\/\*\*[\s\S]*?\*\//g);
  return docs === null ? null : docs.join('\n').replace(/^\/\*\*|\*\/$/g, '');
}

/**
 * The declared types of a target's parameters: {params: [{name, rest, shape, optional, text}, ...] by
 * position, docs: a declaration file's JSDoc of it or null, returns: the SHAPE of its declared
 * return type (the first signature's that declares one) or null}, or null when nothing declares them.
 * `target`: record-driver.mjs's TARGET (file, target, startLine, endLine).
 */
export function declaredParams(reader, repoRoot, target) {
  const file = path.resolve(repoRoot, target.file);
  const source = reader.parse(file);
  if (source === null) return null;
  const fn = findFunction(reader.ts, source, target.startLine ?? 1, target.endLine ?? Number.MAX_SAFE_INTEGER);
  const own = fn === null ? [] : mergeSignatures(reader, [fn.parameters], scopeOf(reader, source), typeParamEnv(reader, fn, scopeOf(reader, source)));
  const ownReturns = fn === null ? null : returnShape(reader, [fn.type ?? reader.ts.getJSDocReturnType?.(fn)], scopeOf(reader, source), typeParamEnv(reader, fn, scopeOf(reader, source)));
  if (own.some((p) => p.shape !== null) && /\.(?:[mc]?ts|tsx)$/.test(file)) return { params: own, docs: null, returns: ownReturns };
  if (!/\.(?:[mc]?ts|tsx)$/.test(file)) {
    for (const declarations of declarationFilesFor(repoRoot, file)) {
      const sf = reader.parse(declarations);
      if (sf === null) continue;
      const signatures = declaredSignatures(reader, sf, target.target);
      if (signatures.length === 0) continue;
      const docs = signatures.map((s) => leadingDocs(sf, s.node)).filter((d) => d !== null).join('\n') || null;
      return { params: mergeSignatures(reader, signatures.map((s) => s.params), scopeOf(reader, sf), new Map()), docs, returns: returnShape(reader, signatures.map((s) => s.returns), scopeOf(reader, sf), new Map()) };
    }
  }
  return own.some((p) => p.shape !== null) ? { params: own, docs: null, returns: ownReturns } : null;
}

/** The SHAPE of the first declared return type among `nodes` (undefined where a signature declares none), or null. */
function returnShape(reader, nodes, scope, env) {
  const node = nodes.find((n) => n !== undefined && n !== null);
  return node === undefined ? null : shapeOf(reader, node, scope, env);
}
