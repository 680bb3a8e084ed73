import { Parser, type Language } from 'web-tree-sitter';
import { loadGrammar } from '../tree-sitter-grammar.js';

// Loaded once per process (grammars are immutable): a cache, not shared mutable state.
let loaded: Language | undefined;

/** Loads tree-sitter-rust once per process, so that `createRustParser` can answer synchronously (masking is a synchronous `MaskBody`). */
export async function loadRustGrammar(): Promise<Language> {
  loaded ??= await loadGrammar('rust');
  return loaded;
}

/** A Rust parser, synchronously, once `loadRustGrammar()` has resolved. Call `delete()` on it and its trees when done. */
export function createRustParser(): Parser {
  if (loaded === undefined) throw new Error('the Rust grammar is not loaded: await loadRustGrammar() first');
  const parser = new Parser();
  parser.setLanguage(loaded);
  return parser;
}
