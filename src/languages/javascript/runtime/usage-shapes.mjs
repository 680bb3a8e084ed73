// What a function's body does with its parameters, as a SHAPE of declared-types.mjs: the
// properties it reads (`req.headers['content-type']`, `const { a, b } = opts`, a parameter
// written as a binding pattern) and what it checks of them (`typeof x.y === 'string'`, comparisons
// with literals, string, array and number operations). For parameters that no type declares: the
// record driver builds extra inputs of these shapes (objects a request-like or options-like
// parameter needs) beside those of the name's kind. A parameter handed on to another function of
// the same file (`getcontenttype(string)`) takes that function's use of it too, one call deep.

import { BUILTIN_TYPES } from './declared-types.mjs';

const MAX_PROPS = 16;
const MAX_DEPTH = 3;
const STRING_METHODS = new Set(['charAt', 'charCodeAt', 'codePointAt', 'endsWith', 'startsWith', 'indexOf', 'lastIndexOf', 'includes', 'match', 'matchAll', 'padEnd', 'padStart', 'repeat', 'replace', 'replaceAll', 'search', 'slice', 'split', 'substr', 'substring', 'toLowerCase', 'toUpperCase', 'trim', 'trimEnd', 'trimStart', 'normalize', 'localeCompare']);
const ARRAY_METHODS = new Set(['map', 'forEach', 'filter', 'reduce', 'some', 'every', 'find', 'findIndex', 'push', 'pop', 'shift', 'unshift', 'join', 'concat', 'flat', 'flatMap', 'sort', 'reverse', 'splice']);
// properties every object, or a built-in class's instances, have: reading one says nothing of a plain object's fields
const OBJECT_PROTO = new Set([
  'hasOwnProperty', 'toString', 'valueOf', 'constructor', 'isPrototypeOf', 'propertyIsEnumerable', 'length', 'prototype', '__proto__',
  'size', 'byteLength', 'byteOffset', 'buffer', 'source', 'flags', 'lastIndex', 'BYTES_PER_ELEMENT',
]);
/** The key of a container's items in the use tree (`tokens[i].name`, `for (const t of tokens)`). */
const ITEM = '\u0000item';
/** Array methods whose callback's first parameter is an item. */
const ITEM_CALLBACKS = new Set(['map', 'forEach', 'filter', 'reduce', 'some', 'every', 'find', 'findIndex', 'flatMap']);
const TYPEOF_KINDS = { string: 'string', number: 'number', boolean: 'boolean', bigint: 'bigint', object: 'object', function: 'function', undefined: 'undefined' };

/** What a walked container holds: plain values, and containers of its own (a recursive walk's second level). */
const NESTED = {
  k: 'union',
  of: [
    { k: 'number' },
    { k: 'object', props: [{ name: 'a', optional: false, type: { k: 'array', of: { k: 'number' } } }, { name: 'b', optional: false, type: { k: 'string' } }] },
    { k: 'array', of: { k: 'object', props: [{ name: 'x', optional: false, type: { k: 'number' } }] } },
    { k: 'string' },
  ],
};

/** A node of the growing use tree: properties read and what was seen of the value itself. */
function node() {
  return { props: new Map(), kinds: new Set(), literals: [] };
}

/** The use tree of `fn`'s parameter `name` (a plain identifier parameter), read in `scope` (a callback's body for its own parameter). */
function collect(ts, sf, fn, name, root, depth, visited, scope = fn.body) {
  const functions = depth === 0 ? localFunctions(ts, sf) : null;
  const aliases = new Set();
  // variables that start as a number (`for (var _i = 0; ...)`): what they index are items
  const counters = namesAssignedFrom(ts, fn, (e) => ts.isNumericLiteral(e));
  /** The chain `name.a['b'].c` of an expression, or null when it does not start at the parameter. */
  const chainOf = (expr) => {
    const keys = [];
    let e = expr;
    for (;;) {
      if (ts.isParenthesizedExpression(e) || ts.isNonNullExpression?.(e)) e = e.expression;
      else if (ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.name)) {
        keys.unshift(e.name.text);
        e = e.expression;
      } else if (ts.isElementAccessExpression(e) && e.argumentExpression && ts.isStringLiteralLike(e.argumentExpression)) {
        keys.unshift(e.argumentExpression.text);
        e = e.expression;
      } else if (ts.isElementAccessExpression(e) && e.argumentExpression && ((ts.isIdentifier(e.argumentExpression) && counters.has(e.argumentExpression.text)) || ts.isNumericLiteral(e.argumentExpression))) {
        // `tokens[i]` (`i` a counter: `var i = 0`, not a for-in key): an item
        keys.unshift(ITEM);
        e = e.expression;
      } else break;
    }
    return ts.isIdentifier(e) && e.text === name ? keys : null;
  };
  const at = (keys) => {
    let n = root;
    for (const [i, key] of keys.entries()) {
      if (i >= MAX_DEPTH || OBJECT_PROTO.has(key)) return null;
      n.kinds.add(key === ITEM ? 'array' : 'object');
      if (!n.props.has(key)) {
        if (n.props.size >= MAX_PROPS) return null;
        n.props.set(key, node());
      }
      n = n.props.get(key);
    }
    return n;
  };
  // `ctor = foo.constructor` (an assignment, a declaration): `ctor === Date` then says foo may be a Date
  const isConstructorOf = (expr) => ts.isPropertyAccessExpression(expr) && expr.name.text === 'constructor' && ts.isIdentifier(expr.expression) && expr.expression.text === name;
  const constructorNames = namesAssignedFrom(ts, fn, isConstructorOf);
  // `str = Object.prototype.toString.call(x)` then `str === '[object Map]'`: the class tags it is compared with
  const isTagOf = (expr) => ts.isCallExpression(expr) && /(?:^|\.)toString\.call$/.test(expr.expression.getText(sf)) && expr.arguments.length === 1 && ts.isIdentifier(expr.arguments[0]) && expr.arguments[0].text === name;
  const tagNames = namesAssignedFrom(ts, fn, isTagOf);
  const tagCompared = (n) => {
    const sides = [n.left, n.right];
    const tagSide = sides.find((e) => isTagOf(e) || (ts.isIdentifier(e) && tagNames.has(e.text)));
    const other = sides.find((e) => e !== tagSide);
    const m = tagSide && other && ts.isStringLiteralLike(other) ? /^\[object (\w+)\]$/.exec(other.text) : null;
    if (m === null) return;
    if (BUILTIN_TYPES.has(m[1])) root.kinds.add(`builtin:${m[1]}`);
    else if (m[1] === 'Array') root.kinds.add('array');
    else if (m[1] === 'Object') root.kinds.add('record');
  };
  const builtinCompared = (n) => {
    if (!ts.isBinaryExpression(n) || ![ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken].includes(n.operatorToken.kind)) return;
    tagCompared(n);
    const sides = [n.left, n.right].map((e) => (ts.isParenthesizedExpression(e) ? e.expression : e));
    const ctorSide = sides.find((e) => isConstructorOf(e) || (ts.isIdentifier(e) && constructorNames.has(e.text)) || (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken && isConstructorOf(e.right)));
    const other = sides.find((e) => e !== ctorSide);
    if (ctorSide && other && ts.isIdentifier(other) && BUILTIN_TYPES.has(other.text)) root.kinds.add(`builtin:${other.text}`);
  };
  // `for (k in obj)` then `k === '__proto__'`: the keys the walk singles out, as fields to give
  const keyVariables = new Map();
  /** `name`'s items are also read as `item` (a loop's or a callback's variable). */
  const followItems = (keys, item, within = scope) => {
    const items = keys === null ? null : at([...keys, ITEM]);
    if (items !== null && ts.isIdentifier(item) && !aliases.has(item.text) && aliases.size < MAX_PROPS) {
      aliases.add(item.text);
      collect(ts, sf, fn, item.text, items, depth, visited, within);
    }
  };
  const visit = (child) => {
    builtinCompared(child);
    // `for (const token of tokens)`, `tokens.map((token) => ...)`
    if (ts.isForOfStatement(child) && ts.isVariableDeclarationList(child.initializer)) followItems(chainOf(child.expression), child.initializer.declarations[0]?.name);
    if (ts.isCallExpression(child) && ts.isPropertyAccessExpression(child.expression) && ITEM_CALLBACKS.has(child.expression.name.text)) {
      const callback = child.arguments[0];
      const position = child.expression.name.text === 'reduce' ? 1 : 0;
      if (callback && (ts.isArrowFunction(callback) || ts.isFunctionExpression(callback))) followItems(chainOf(child.expression.expression), callback.parameters[position]?.name, callback.body);
    }
    if (ts.isForInStatement(child)) {
      // `for (var k in obj)` or `for (k in obj)`
      const key = ts.isVariableDeclarationList(child.initializer) ? child.initializer.declarations[0]?.name : child.initializer;
      const keys = key && ts.isIdentifier(key) ? chainOf(child.expression) : null;
      const target = keys === null ? null : at(keys);
      if (target !== null) keyVariables.set(key.text, target);
    }
    if (ts.isBinaryExpression(child) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken].includes(child.operatorToken.kind)) {
      const [key, literal] = ts.isIdentifier(child.left) ? [child.left, child.right] : [child.right, child.left];
      const walked = ts.isIdentifier(key) ? keyVariables.get(key.text) : undefined;
      if (walked && ts.isStringLiteralLike(literal) && walked.props.size < MAX_PROPS && !walked.props.has(literal.text)) {
        walked.kinds.add('object');
        walked.props.set(literal.text, node());
      }
    }
    // `x instanceof Map`, `Array.isArray(x)`, `ArrayBuffer.isView(x)`, `Buffer.isBuffer(x)`
    if (ts.isBinaryExpression(child) && child.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword && ts.isIdentifier(child.right)) {
      const keys = chainOf(child.left);
      const target = keys === null ? null : at(keys);
      if (target !== null && BUILTIN_TYPES.has(child.right.text)) target.kinds.add(`builtin:${child.right.text}`);
      else if (target !== null && child.right.text === 'Array') target.kinds.add('array');
    }
    if (ts.isCallExpression(child) && ts.isPropertyAccessExpression(child.expression) && child.arguments.length === 1) {
      const call = child.expression.getText(sf);
      const keys = chainOf(child.arguments[0]);
      const target = keys === null ? null : at(keys);
      if (target !== null && call === 'Array.isArray') target.kinds.add('array');
      else if (target !== null && call === 'ArrayBuffer.isView') target.kinds.add('builtin:Uint8Array');
      else if (target !== null && call === 'Buffer.isBuffer') target.kinds.add('builtin:Buffer');
    }
    // a nested function that declares the same name: its own, not this parameter
    if (child !== scope && isFunctionLike(ts, child) && child.parameters?.some((p) => ts.isIdentifier(p.name) && p.name.text === name)) return;
    if (ts.isPropertyAccessExpression(child) || ts.isElementAccessExpression(child)) {
      const keys = chainOf(child);
      if (keys !== null && keys.length > 0) {
        const method = keys[keys.length - 1];
        const parent = child.parent;
        const called = parent && ts.isCallExpression(parent) && parent.expression === child;
        if (called && STRING_METHODS.has(method)) at(keys.slice(0, -1))?.kinds.add('string');
        else if (called && ARRAY_METHODS.has(method)) at(keys.slice(0, -1))?.kinds.add('array');
        else if (called) at(keys)?.kinds.add('function');
        else {
          const target = at(keys);
          if (target !== null) noteUse(ts, child, target, moduleLiterals(ts, sf));
          // `var parameters = obj.parameters`, `var p = typeof o.p === 'string' ? o.p.toLowerCase() : o.p`: the variable's uses are the property's
          const alias = target === null ? null : aliasOf(ts, child);
          if (alias !== null && !aliases.has(alias) && aliases.size < MAX_PROPS) {
            aliases.add(alias);
            collect(ts, sf, fn, alias, target, depth, visited);
          }
        }
        return; // the chain's inner parts are this one's prefixes
      }
    }
    if (ts.isIdentifier(child) && child.text === name && child.parent) {
      const parent = child.parent;
      if (ts.isVariableDeclaration(parent) && parent.initializer === child && ts.isObjectBindingPattern(parent.name)) bindingProps(ts, parent.name, root, depth === 0 ? (member, target) => collect(ts, sf, fn, member, target, depth + 1, visited) : null);
      // `var opt = options || {}`, `const o = { ...defaults, ...options }`: the variable's uses are the parameter's
      // (not one branch of a choice: `typeof input === 'object' ? headerOf(input) : input` is a string in the other)
      const alias = aliasOf(ts, child, { branches: false });
      if (alias !== null && alias !== name && !aliases.has(alias) && aliases.size < MAX_PROPS) {
        aliases.add(alias);
        collect(ts, sf, fn, alias, root, depth, visited);
      }
      // handed on whole to a function of this file: that function's use of it
      if (ts.isCallExpression(parent) && functions !== null && ts.isIdentifier(parent.expression)) {
        const callee = functions.get(parent.expression.text);
        const index = parent.arguments.indexOf(child);
        const param = callee?.parameters?.[index];
        if (callee && callee !== fn && param && ts.isIdentifier(param.name) && !visited.has(callee)) {
          visited.add(callee);
          collect(ts, sf, callee, param.name.text, root, depth + 1, visited);
        }
      }
      if (!ts.isPropertyAccessExpression(parent) && !ts.isElementAccessExpression(parent)) noteUse(ts, child, root, moduleLiterals(ts, sf));
    }
    ts.forEachChild(child, visit);
  };
  if (scope) visit(scope);
}

/** Methods whose result is the same value in another case or trimmed: `var p = o.p.toLowerCase()` still holds `o.p`. */
const SAME_VALUE_METHODS = new Set(['toLowerCase', 'toUpperCase', 'toLocaleLowerCase', 'toLocaleUpperCase', 'trim', 'trimStart', 'trimEnd']);

/**
 * The variable a value (a parameter, or a property chain of it) is copied into, whole or with
 * defaults around it, or null: `var opt = options || {}`, `options ?? {}`, `{ ...defaults,
 * ...options }`, `Object.assign({}, defaults, options)`, `typeof o.p === 'string' ?
 * o.p.toLowerCase() : o.p` (with `branches`); a declaration or an assignment.
 */
function aliasOf(ts, expr, { branches = true } = {}) {
  let e = expr;
  for (;;) {
    const parent = e.parent;
    if (!parent) return null;
    const defaulted = ts.isBinaryExpression(parent) && parent.left === e && [ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(parent.operatorToken.kind);
    const spread = ts.isSpreadAssignment(parent) && ts.isObjectLiteralExpression(parent.parent);
    const assigned = ts.isCallExpression(parent) && parent.arguments.includes(e) && parent.expression.getText() === 'Object.assign' && parent.arguments[0] !== e;
    const branch = branches && ts.isConditionalExpression(parent) && parent.condition !== e;
    const recased = ts.isPropertyAccessExpression(parent) && parent.expression === e && SAME_VALUE_METHODS.has(parent.name.text) && ts.isCallExpression(parent.parent) && parent.parent.expression === parent;
    if (ts.isParenthesizedExpression(parent) || defaulted || assigned || branch) e = parent;
    else if (spread || recased) e = parent.parent;
    else break;
  }
  const parent = e.parent;
  if (ts.isVariableDeclaration(parent) && parent.initializer === e && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isBinaryExpression(parent) && parent.right === e && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(parent.left)) return parent.left.text;
  return null;
}

/** What an expression's surroundings say of its value: typeof checks, literal comparisons, arithmetic. */
function noteUse(ts, expr, target, constants = new Map()) {
  const parent = expr.parent;
  if (!parent) return;
  if (ts.isTypeOfExpression(parent)) {
    const cmp = parent.parent;
    if (cmp && ts.isBinaryExpression(cmp)) {
      const other = cmp.left === parent ? cmp.right : cmp.left;
      if (ts.isStringLiteralLike(other) && TYPEOF_KINDS[other.text]) target.kinds.add(TYPEOF_KINDS[other.text]);
    }
    return;
  }
  if (ts.isCallExpression(parent) && parent.arguments.includes(expr)) {
    const callee = parent.expression;
    if (ts.isPropertyAccessExpression(callee)) {
      const method = callee.name.text;
      const owner = callee.expression;
      // `Object.keys(x)`, `for`-like reads of its members: an object of values; `RE.test(x)`: a string
      if (ts.isIdentifier(owner) && owner.text === 'Object' && ['keys', 'values', 'entries'].includes(method)) target.kinds.add('record');
      else if (method === 'test' || method === 'exec') target.kinds.add('string');
    }
    return;
  }
  if (ts.isForInStatement(parent) && parent.expression === expr) {
    target.kinds.add('record');
    return;
  }
  if (ts.isBinaryExpression(parent)) {
    const op = parent.operatorToken.kind;
    const K = ts.SyntaxKind;
    const other = parent.left === expr ? parent.right : parent.left;
    if ([K.EqualsEqualsEqualsToken, K.EqualsEqualsToken, K.ExclamationEqualsEqualsToken, K.ExclamationEqualsToken].includes(op)) {
      if (ts.isStringLiteralLike(other)) target.literals.push(other.text);
      else if (ts.isNumericLiteral(other)) target.literals.push(Number(other.text));
      // a module constant (`standard === SI`, `const SI = "si"`)
      else if (ts.isIdentifier(other) && constants.has(other.text)) target.literals.push(constants.get(other.text));
      else if (other.kind === K.TrueKeyword || other.kind === K.FalseKeyword) target.kinds.add('boolean');
    } else if ([K.MinusToken, K.AsteriskToken, K.SlashToken, K.PercentToken, K.LessThanToken, K.GreaterThanToken, K.LessThanEqualsToken, K.GreaterThanEqualsToken].includes(op)) {
      target.kinds.add('number');
    }
    return;
  }
  if (ts.isCaseClause(parent) && ts.isSwitchStatement(parent.parent?.parent) && parent.parent.parent.expression === expr) return;
  if (ts.isSwitchStatement(parent) && parent.expression === expr) {
    for (const clause of parent.caseBlock.clauses) {
      if (ts.isCaseClause(clause) && ts.isStringLiteralLike(clause.expression)) target.literals.push(clause.expression.text);
      else if (ts.isCaseClause(clause) && ts.isNumericLiteral(clause.expression)) target.literals.push(Number(clause.expression.text));
      else if (ts.isCaseClause(clause) && ts.isIdentifier(clause.expression) && constants.has(clause.expression.text)) target.literals.push(constants.get(clause.expression.text));
      else if (ts.isCaseClause(clause) && clause.expression.kind === ts.SyntaxKind.TrueKeyword) target.kinds.add('boolean');
    }
  }
}

/**
 * `{ a, b: c, d = 1 }`: a property per member; `follow(name, node)`, when given, reads the uses of
 * each member bound to a name (`precision > 0`, `standard === 'iec'`).
 */
function bindingProps(ts, pattern, target, follow = null) {
  target.kinds.add('object');
  for (const element of pattern.elements) {
    if (element.dotDotDotToken || target.props.size >= MAX_PROPS) continue;
    const key = element.propertyName ?? element.name;
    if (!(ts.isIdentifier(key) || ts.isStringLiteralLike(key))) continue;
    // a name destructured is a field the value is expected to have, whatever it is called
    if (key.text === '__proto__' || key.text === 'constructor') continue;
    const child = target.props.get(key.text) ?? node();
    target.props.set(key.text, child);
    if (element.initializer) literalKind(ts, element.initializer, child);
    if (ts.isObjectBindingPattern(element.name)) bindingProps(ts, element.name, child, follow);
    else if (follow !== null && ts.isIdentifier(element.name)) follow(element.name.text, child);
  }
}

function literalKind(ts, expr, target) {
  if (ts.isStringLiteralLike(expr)) target.kinds.add('string');
  else if (ts.isNumericLiteral(expr)) target.kinds.add('number');
  else if (expr.kind === ts.SyntaxKind.TrueKeyword || expr.kind === ts.SyntaxKind.FalseKeyword) target.kinds.add('boolean');
  else if (ts.isArrayLiteralExpression(expr)) target.kinds.add('array');
}

function isFunctionLike(ts, n) {
  return ts.isFunctionDeclaration(n) || ts.isFunctionExpression(n) || ts.isArrowFunction(n) || ts.isMethodDeclaration(n);
}

/** The variables of `fn`'s body assigned (or declared) from an expression `from` accepts. */
function namesAssignedFrom(ts, fn, from) {
  const names = new Set();
  const visit = (n) => {
    if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(n.left) && from(n.right)) names.add(n.left.text);
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && from(n.initializer)) names.add(n.name.text);
    ts.forEachChild(n, visit);
  };
  if (fn.body) visit(fn.body);
  return names;
}

/** `read(ts, sf)` done once per parsed file. */
function oncePerFile(read) {
  const cache = new WeakMap();
  return (ts, sf) => {
    if (!cache.has(sf)) cache.set(sf, read(ts, sf));
    return cache.get(sf);
  };
}

/** The module's top-level constants bound to a string or number literal (`const SI = "si"`). */
const moduleLiterals = oncePerFile((ts, sf) => {
  const out = new Map();
  for (const statement of sf.statements) {
    if (!ts.isVariableStatement(statement) || !(statement.declarationList.flags & ts.NodeFlags.Const)) continue;
    for (const d of statement.declarationList.declarations) {
      if (!ts.isIdentifier(d.name) || d.initializer === undefined) continue;
      if (ts.isStringLiteralLike(d.initializer)) out.set(d.name.text, d.initializer.text);
      else if (ts.isNumericLiteral(d.initializer)) out.set(d.name.text, Number(d.initializer.text));
    }
  }
  return out;
});

/** Functions declared by name at any level of the file (`function f` and `const f = () =>`). */
const localFunctions = oncePerFile((ts, sf) => {
  const out = new Map();
  const visit = (n) => {
    if (ts.isFunctionDeclaration(n) && n.name && n.body) out.set(n.name.text, n);
    else if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer))) out.set(n.name.text, n.initializer);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
});

/** The use tree as a SHAPE: the fields read, the built-in classes and containers checked, the literals and kinds seen. */
function toShape(n, depth = 0) {
  const members = [];
  // methods called on it (`x.getTime()`) are no fields to give; its items are no field either
  const fields = [...n.props.entries()].filter(([name, child]) => name !== ITEM && !child.kinds.has('function'));
  const items = n.props.get(ITEM);
  if (fields.length > 0) members.push({ k: 'object', props: fields.map(([name, child]) => ({ name, optional: false, type: toShape(child, depth + 1) })) });
  members.push(...[...new Set(n.literals)].slice(0, 4).map((v) => ({ k: 'literal', v })));
  for (const k of n.kinds) {
    if (k.startsWith('builtin:')) {
      // a Set or Map checked at the top holds containers too (a walk that recurses into its members)
      const name = k.slice('builtin:'.length);
      const of = depth > 0 ? [] : name === 'Set' ? [NESTED] : name === 'Map' ? [NESTED, NESTED] : [];
      members.push({ k: 'builtin', name, of });
    } else if (k === 'array') members.push({ k, of: items !== undefined && (items.props.size > 0 || items.kinds.size > 0) ? toShape(items, depth + 1) : depth === 0 ? NESTED : { k: 'any' } });
    else if (k === 'record') members.push({ k, of: depth === 0 ? NESTED : { k: 'string' } });
    else if (['string', 'number', 'boolean', 'bigint'].includes(k)) members.push({ k });
  }
  if (members.length === 0) return n.kinds.has('object') ? { k: 'object', props: [] } : { k: 'string' };
  return members.length === 1 ? members[0] : { k: 'union', of: members };
}

/**
 * The shapes of `fn`'s parameters as its body uses them: one entry per parameter, an object SHAPE
 * where the body reads properties of it (or it is a binding pattern), else null.
 */
export function usageShapes(ts, sf, fn) {
  return (fn.parameters ?? []).map((param) => {
    const root = node();
    if (ts.isObjectBindingPattern(param.name)) bindingProps(ts, param.name, root, (member, target) => collect(ts, sf, fn, member, target, 1, new Set([fn])));
    else if (ts.isIdentifier(param.name)) collect(ts, sf, fn, param.name.text, root, 0, new Set([fn]));
    else return null;
    // an object read by property, or a value checked against built-in classes (a Date, a Map)
    // worth a shape: fields read, built-in classes checked, or a container walked (Array.isArray, for-in, Object.keys)
    const fields = [...root.props.values()].filter((child) => !child.kinds.has('function'));
    const structured = [...root.kinds].some((k) => k.startsWith('builtin:') || k === 'array' || k === 'record');
    return fields.length > 0 || structured ? toShape(root) : null;
  });
}

/** The function an internal unit is called through, by its export path's last name (`parse` of `default.parse`), or null. */
export function entryFunction(ts, sf, exportPath) {
  const name = String(exportPath).split('.').pop();
  return localFunctions(ts, sf).get(name) ?? null;
}

/**
 * Where this file hands another function's result to `name`: for each parameter position, the names
 * of the functions whose results are passed there (`tokensToRegexp(parse(path), keys)`, or
 * `const tokens = parse(path); tokensToRegexp(tokens)`). Values of that kind are best made by the
 * function that makes them.
 */
export function feedersOf(ts, sf, name) {
  const out = new Map();
  const add = (position, feeder) => {
    if (feeder === name) return;
    if (!out.has(position)) out.set(position, new Set());
    out.get(position).add(feeder);
  };
  const calleeName = (call) => (ts.isIdentifier(call.expression) ? call.expression.text : null);
  // `const tokens = parse(path)`: the variable's maker, per enclosing function (names may repeat across functions)
  const madeBy = (identifier) => {
    let scope = identifier.parent;
    while (scope && !isFunctionLike(ts, scope) && !ts.isSourceFile(scope)) scope = scope.parent;
    let found = null;
    const visit = (n) => {
      if (found !== null) return;
      if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === identifier.text && n.initializer && ts.isCallExpression(n.initializer)) found = calleeName(n.initializer);
      ts.forEachChild(n, visit);
    };
    if (scope) visit(scope);
    return found;
  };
  const visit = (n) => {
    if (ts.isCallExpression(n) && calleeName(n) === name) {
      n.arguments.forEach((arg, i) => {
        const inner = ts.isParenthesizedExpression(arg) ? arg.expression : arg;
        const feeder = ts.isCallExpression(inner) ? calleeName(inner) : ts.isIdentifier(inner) ? madeBy(inner) : null;
        if (feeder !== null) add(i, feeder);
      });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/**
 * Pairs of parameter positions the body compares with each other, whole or by the same property
 * (`foo === bar`, `foo.size !== bar.size`, `a.constructor === b.constructor`): values alike, or
 * nearly, are what such a function is for (equality, diff, merge).
 */
export function alikeParams(ts, fn) {
  const names = (fn.parameters ?? []).map((p) => (ts.isIdentifier(p.name) ? p.name.text : null));
  const rootOf = (expr) => {
    const keys = [];
    let e = expr;
    for (;;) {
      if (ts.isParenthesizedExpression(e)) e = e.expression;
      else if (ts.isPropertyAccessExpression(e)) {
        keys.unshift(e.name.text);
        e = e.expression;
      } else if (ts.isElementAccessExpression(e) && e.argumentExpression) {
        keys.unshift(e.argumentExpression.getText());
        e = e.expression;
      } else if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression)) {
        keys.unshift(`${e.expression.name.text}()`);
        e = e.expression.expression;
      } else break;
    }
    const position = ts.isIdentifier(e) ? names.indexOf(e.text) : -1;
    return position === -1 ? null : { position, path: keys.join('.') };
  };
  const comparisons = new Set([ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken, ts.SyntaxKind.LessThanToken, ts.SyntaxKind.GreaterThanToken]);
  const pairs = new Map();
  const visit = (n) => {
    if (ts.isBinaryExpression(n) && comparisons.has(n.operatorToken.kind)) {
      const a = rootOf(n.left);
      const b = rootOf(n.right);
      if (a !== null && b !== null && a.position !== b.position && a.path === b.path) {
        const pair = [Math.min(a.position, b.position), Math.max(a.position, b.position)];
        pairs.set(pair.join(','), pair);
      }
    }
    ts.forEachChild(n, visit);
  };
  if (fn.body) visit(fn.body);
  return [...pairs.values()];
}
