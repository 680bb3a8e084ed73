import { Parser, type Language } from 'web-tree-sitter';
import { loadGrammar } from '../tree-sitter-grammar.js';

// Loaded once per process (grammars are immutable): a cache, not shared mutable state.
let loaded: Language | undefined;

/** Loads tree-sitter-java once per process, so that `createJavaParser` can answer synchronously (masking is a synchronous `MaskBody`). */
export async function loadJavaGrammar(): Promise<Language> {
  loaded ??= await loadGrammar('java');
  return loaded;
}

/** A Java parser, synchronously, once `loadJavaGrammar()` has resolved. Call `delete()` on it and its trees when done. */
export function createJavaParser(): Parser {
  if (loaded === undefined) throw new Error('the Java grammar is not loaded: await loadJavaGrammar() first');
  const parser = new Parser();
  parser.setLanguage(loaded);
  return parser;
}
