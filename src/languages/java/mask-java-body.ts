import type { Node } from 'web-tree-sitter';
import type { Unit } from '../construction-types.js';
import { maskFunctionBody } from '../mask-function-body.js';
import { lineOf, namedChildrenOf } from '../tree-sitter-nodes.js';
import { createJavaParser } from './java-grammar.js';
import { CONSTRUCTOR_NAME } from './parse-java-units.js';

/** What a masked Java body holds: a throw, which completes abruptly, so any signature still compiles. */
export const MASKED_JAVA_STATEMENT = 'throw new UnsupportedOperationException("not implemented");';

/**
 * Replaces the body of `unit` in `source` with `throw new UnsupportedOperationException("not
 * implemented");`, keeping its signature and Javadoc. A constructor keeps an explicit `this(…)` or
 * `super(…)` call that starts it (without it javac would insert `super()`, which a superclass without
 * a no-argument constructor refuses); its blank `final` fields need no assignment after a throw.
 * Needs `loadJavaGrammar()` to have resolved. Throws MaskBodyError when the unit's method is not in
 * the file, or the result would not parse.
 */
export function maskJavaBody(source: string, unit: Unit): string {
  return maskFunctionBody(source, unit, {
    createParser: createJavaParser,
    declaration: 'method',
    find: memberAt,
    maskedBody: (body, indent) => {
      const step = /^\t/.test(indent) ? '\t' : '    ';
      const first = namedChildrenOf(body)[0];
      const kept = first?.type === 'explicit_constructor_invocation' ? `\n${indent}${step}${first.text}` : '';
      return `{${kept}\n${indent}${step}${MASKED_JAVA_STATEMENT}\n${indent}}`;
    },
  });
}

/** The method or constructor of `unit`: its class and name, and its body's first statement on `unit.bodyStartLine`. */
function memberAt(root: Node, unit: Unit): Node | null {
  const [className, rawName] = unit.qualname.split('.');
  const name = (rawName ?? '').replace(/~\d+$/, '');
  for (const cls of namedChildrenOf(root)) {
    if (cls.type !== 'class_declaration' || cls.childForFieldName('name')?.text !== className) continue;
    const body = cls.childForFieldName('body');
    for (const m of body === null ? [] : namedChildrenOf(body)) {
      const isCtor = m.type === 'constructor_declaration';
      if (!isCtor && m.type !== 'method_declaration') continue;
      if ((isCtor ? CONSTRUCTOR_NAME : m.childForFieldName('name')?.text) !== name) continue;
      const mbody = m.childForFieldName('body');
      const first = mbody === null ? undefined : namedChildrenOf(mbody).filter((s) => s.type !== 'line_comment' && s.type !== 'block_comment')[0];
      if (first !== undefined && lineOf(first) === unit.bodyStartLine) return m;
    }
  }
  return null;
}
