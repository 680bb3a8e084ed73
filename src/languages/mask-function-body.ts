import type { Node, Parser } from 'web-tree-sitter';
import type { Unit } from './construction-types.js';
import { MaskBodyError } from './language-adapter.js';
import { errorLineRanges } from './tree-sitter-nodes.js';

/** What a plugin's masking knows of its language, for `maskFunctionBody`. */
export interface BodyMask {
  /** A parser of the language, created synchronously; `maskFunctionBody` deletes it. */
  createParser: () => Parser;
  /** What the language calls the declaration, as the mask-not-found error names it (`function`, `method`). */
  declaration: string;
  /** The unit's declaration in the parsed file (its body in the `body` field), or null where the file has none. */
  find: (root: Node, unit: Unit) => Node | null;
  /** The masked body, braces included, that replaces `body`; `indent` is the white space that starts the declaration's line. */
  maskedBody: (body: Node, indent: string) => string;
  /** The masked file made to compile again (Go blanks the imports it no longer uses); unchanged by default. */
  repair?: (masked: string, parser: Parser) => string;
}

/**
 * Replaces the body of `unit` in `source` with `mask.maskedBody`, keeping the rest of the file.
 * Throws MaskBodyError `mask-not-found` when the unit's declaration is not in the file, and
 * `mask-broken` when the result (after `repair`) would not parse (holds more syntax errors, to this
 * grammar, than the original did).
 */
export function maskFunctionBody(source: string, unit: Unit, mask: BodyMask): string {
  const parser = mask.createParser();
  try {
    const tree = parser.parse(source);
    if (tree === null) throw new MaskBodyError('mask-not-found', `${unit.id}: the parser gave no tree`);
    let masked: string;
    // errors the grammar already finds in the original (one older than the compiler) are not the mask's
    let errorsBefore = 0;
    try {
      errorsBefore = tree.rootNode.hasError ? errorLineRanges(tree.rootNode).length : 0;
      const declaration = mask.find(tree.rootNode, unit);
      if (declaration === null) throw new MaskBodyError('mask-not-found', `${unit.id}: no ${mask.declaration} with its body at lines ${unit.bodyStartLine}..${unit.bodyEndLine} in ${unit.file}`);
      const body = declaration.childForFieldName('body')!;
      const line = source.slice(source.lastIndexOf('\n', declaration.startIndex - 1) + 1, declaration.startIndex);
      const indent = /^[ \t]*/.exec(line)?.[0] ?? '';
      masked = `${source.slice(0, body.startIndex)}${mask.maskedBody(body, indent)}${source.slice(body.endIndex)}`;
    } finally {
      tree.delete();
    }
    const repaired = mask.repair === undefined ? masked : mask.repair(masked, parser);
    const check = parser.parse(repaired);
    const broken = check === null || (check.rootNode.hasError && errorLineRanges(check.rootNode).length > errorsBefore);
    check?.delete();
    if (broken) throw new MaskBodyError('mask-broken', `${unit.id}: the masked file would not parse`);
    return repaired;
  } finally {
    parser.delete();
  }
}
