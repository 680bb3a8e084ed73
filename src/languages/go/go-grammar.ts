import { Parser, type Language } from 'web-tree-sitter';
import { loadGrammar } from '../tree-sitter-grammar.js';

// Loaded once per process (grammars are immutable): a cache, not shared mutable state.
let loaded: Language | undefined;

/** Loads tree-sitter-go once per process, so that `createGoParser` can answer synchronously (masking is a synchronous `MaskBody`). */
export async function loadGoGrammar(): Promise<Language> {
  loaded ??= await loadGrammar('go');
  return loaded;
}

/** A Go parser, synchronously, once `loadGoGrammar()` has resolved. Call `delete()` on it and its trees when done. */
export function createGoParser(): Parser {
  if (loaded === undefined) throw new Error('the Go grammar is not loaded: await loadGoGrammar() first');
  const parser = new Parser();
  parser.setLanguage(loaded);
  return parser;
}
