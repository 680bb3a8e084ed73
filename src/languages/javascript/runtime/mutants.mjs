// Mutants of one function's body, found with the `typescript` package's parser (JavaScript and
// TypeScript alike): each is a text edit {start, end, text, description} of the file's source.
// Operators: arithmetic (+ - * / %), comparisons (< <= > >= === !== == !=), && and ||, compound
// assignments, ++/--, `!` and unary `-` removed, numbers ±1, true/false swapped, non-empty strings
// emptied (not an error's message: never compared), a returned value replaced by undefined, conditions
// negated. Type annotations and the arguments of a built-in error's constructor are skipped.

const SWAPS = {
  '+': ['-'], '-': ['+'], '*': ['/'], '/': ['*'], '%': ['*'],
  '<': ['<=', '>='], '<=': ['<', '>'], '>': ['>=', '<='], '>=': ['>', '<'],
  '===': ['!=='], '!==': ['==='], '==': ['!='], '!=': ['=='],
  '&&': ['||'], '||': ['&&'], '??': ['||'],
  '+=': ['-='], '-=': ['+='], '*=': ['/='], '/=': ['*='],
};

function functionLike(ts, node) {
  return ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node);
}

/** The function of a unit: the outermost function-like node with a body within lines startLine..endLine (1-based). */
export function findFunction(ts, sourceFile, startLine, endLine) {
  let found = null;
  const lineOf = (pos) => sourceFile.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node) => {
    if (found !== null) return;
    if (functionLike(ts, node) && node.body !== undefined) {
      const first = lineOf(node.getStart(sourceFile));
      const last = lineOf(node.getEnd());
      if (first >= startLine && last <= endLine) {
        found = node;
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

function short(text) {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 40 ? `${line.slice(0, 37)}...` : line;
}

const LOGICAL = new Set(['&&', '||', '??']);

/** `undefined` or `void 0` as written: replacing it by undefined changes nothing. */
function isUndefinedText(text) {
  return /^(?:undefined|void\s+0)$/.test(text.trim());
}
const BUILTIN_ERROR = /^(?:globalThis\.)?(?:Error|TypeError|RangeError|SyntaxError|ReferenceError|EvalError|URIError|AggregateError)$/;

/**
 * True when `node` sits in a part of an expression that may not run when its block runs, within
 * `fn`: a branch of a conditional expression, or the right operand of a logical operator. (A
 * condition, a left operand and the operator itself run whenever the expression does.)
 */
function guarded(ts, node, fn) {
  for (let child = node, p = node.parent; p !== undefined && p !== fn; child = p, p = p.parent) {
    if (ts.isConditionalExpression(p) && child !== p.condition) return true;
    if (ts.isBinaryExpression(p) && LOGICAL.has(p.operatorToken.getText()) && child === p.right) return true;
  }
  return false;
}

/**
 * Where block coverage of the original says whether a mutant's code ran at all: the start of the
 * innermost statement holding it, in the same function (a statement that never began ran nothing
 * inside it). null when a function lies between the two (a nested function's parameter default, an
 * arrow's expression body, `fn`'s own): that code may run where its statement did not.
 */
function runsAt(ts, sourceFile, node, fn) {
  for (let p = node.parent; p !== undefined && p !== fn; p = p.parent) {
    if (functionLike(ts, p)) return null;
    if (p.kind >= ts.SyntaxKind.FirstStatement && p.kind <= ts.SyntaxKind.LastStatement) return p.getStart(sourceFile);
  }
  return null;
}

/** Every mutant of the function's body, in source order; `guarded` as guarded() says, `runsAt` as runsAt() does. */
export function mutantsOf(ts, sourceFile, fn) {
  const text = sourceFile.text;
  const out = [];
  const lineOf = (pos) => sourceFile.getLineAndCharacterOfPosition(pos).line + 1;
  const edit = (node, replacement, what) => {
    const start = node.getStart(sourceFile);
    const end = node.getEnd();
    out.push({ start, end, text: replacement, guarded: guarded(ts, node, fn), runsAt: runsAt(ts, sourceFile, node, fn), description: `line ${lineOf(start)}: ${what ?? `${short(text.slice(start, end))} -> ${short(replacement)}`}` });
  };
  const visit = (node) => {
    if (ts.isTypeNode(node) || ts.isDecorator(node) || ts.isImportDeclaration(node)) return;
    // a built-in error's arguments (its message, `{cause}`) are never compared: no mutant there could be told apart
    if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && BUILTIN_ERROR.test(node.expression.getText(sourceFile))) return;
    if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken;
      for (const swap of SWAPS[op.getText(sourceFile)] ?? []) edit(op, swap);
    } else if (ts.isPrefixUnaryExpression(node)) {
      if (node.operator === ts.SyntaxKind.ExclamationToken) edit(node, text.slice(node.operand.getStart(sourceFile), node.operand.getEnd()), `${short(node.getText(sourceFile))}: '!' removed`);
      else if (node.operator === ts.SyntaxKind.MinusToken && !ts.isNumericLiteral(node.operand)) edit(node, text.slice(node.operand.getStart(sourceFile), node.operand.getEnd()), `${short(node.getText(sourceFile))}: '-' removed`);
      else if (node.operator === ts.SyntaxKind.PlusPlusToken) edit(node, `--${node.operand.getText(sourceFile)}`);
      else if (node.operator === ts.SyntaxKind.MinusMinusToken) edit(node, `++${node.operand.getText(sourceFile)}`);
    } else if (ts.isPostfixUnaryExpression(node)) {
      edit(node, `${node.operand.getText(sourceFile)}${node.operator === ts.SyntaxKind.PlusPlusToken ? '--' : '++'}`);
    } else if (ts.isNumericLiteral(node)) {
      const value = Number(node.text);
      // `void 0` is undefined whatever the number: no mutant there
      if (Number.isFinite(value) && !ts.isPropertyAssignment(node.parent) && !ts.isVoidExpression(node.parent)) {
        const negated = ts.isPrefixUnaryExpression(node.parent) && node.parent.operator === ts.SyntaxKind.MinusToken;
        for (const v of [value + 1, value - 1]) edit(node, v < 0 && !negated ? `(${v})` : String(v));
      }
    } else if (node.kind === ts.SyntaxKind.TrueKeyword) {
      edit(node, 'false');
    } else if (node.kind === ts.SyntaxKind.FalseKeyword) {
      edit(node, 'true');
    } else if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && node.text !== '') {
      const parent = node.parent;
      const directive = ts.isExpressionStatement(parent);
      const key = (ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent)) && parent.name === node;
      const required = ts.isCallExpression(parent) && ts.isIdentifier(parent.expression) && parent.expression.text === 'require';
      // an error's message is never compared (codec.mjs): emptying it could not be told apart
      const message = (ts.isNewExpression(parent) || ts.isCallExpression(parent)) && /Error$/.test(parent.expression.getText(sourceFile));
      if (!directive && !key && !required && !message && !ts.isImportDeclaration(parent) && !ts.isExternalModuleReference(parent)) edit(node, "''");
    } else if (ts.isReturnStatement(node) && node.expression !== undefined && !isUndefinedText(node.expression.getText(sourceFile))) {
      edit(node.expression, 'undefined', `return ${short(node.expression.getText(sourceFile))} -> return undefined`);
    } else if ((ts.isIfStatement(node) || ts.isWhileStatement(node) || ts.isDoStatement(node)) && node.expression !== undefined) {
      edit(node.expression, `!(${node.expression.getText(sourceFile)})`, `condition ${short(node.expression.getText(sourceFile))} negated`);
    } else if (ts.isForStatement(node) && node.condition !== undefined) {
      edit(node.condition, `!(${node.condition.getText(sourceFile)})`, `condition ${short(node.condition.getText(sourceFile))} negated`);
    } else if (ts.isConditionalExpression(node)) {
      edit(node.condition, `!(${node.condition.getText(sourceFile)})`, `condition ${short(node.condition.getText(sourceFile))} negated`);
    }
    ts.forEachChild(node, visit);
  };
  const body = fn.body;
  if (body !== undefined && !ts.isBlock(body) && !isUndefinedText(body.getText(sourceFile))) {
    // an arrow's expression body is its returned value
    edit(body, 'undefined', `=> ${short(body.getText(sourceFile))} -> => undefined`);
  }
  if (body !== undefined) visit(body);
  return out;
}

/** `source` with one mutant's edit applied. */
export function applyMutant(source, mutant) {
  return source.slice(0, mutant.start) + mutant.text + source.slice(mutant.end);
}
