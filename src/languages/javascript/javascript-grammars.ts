import { Parser, type Language } from 'web-tree-sitter';
import { loadGrammar } from '../tree-sitter-grammar.js';

/** The tree-sitter-wasms grammars JavaScript and TypeScript sources are parsed with. */
export type JavaScriptGrammar = 'javascript' | 'typescript' | 'tsx';

const GRAMMARS: readonly JavaScriptGrammar[] = ['javascript', 'typescript', 'tsx'];

// Loaded once per process (grammars are immutable): a cache, not shared mutable state.
let loading: Promise<Map<JavaScriptGrammar, Language>> | undefined;
let loaded: Map<JavaScriptGrammar, Language> | undefined;

/** Loads the three grammars once per process, so that `createJavaScriptParser` can answer synchronously. */
export function loadJavaScriptGrammars(): Promise<Map<JavaScriptGrammar, Language>> {
  loading ??= Promise.all(GRAMMARS.map(async (name) => [name, await loadGrammar(name)] as const)).then((pairs) => {
    loaded = new Map(pairs);
    return loaded;
  });
  return loading;
}

/** The grammar a file is parsed with, by extension: `.ts .mts .cts` TypeScript, `.tsx` TSX, else JavaScript (JSX included). */
export function grammarOf(file: string): JavaScriptGrammar {
  if (/\.[mc]?ts$/.test(file)) return 'typescript';
  if (file.endsWith('.tsx')) return 'tsx';
  return 'javascript';
}

/**
 * A parser for `grammar`, synchronously, once `loadJavaScriptGrammars()` has resolved (masking is a
 * synchronous `MaskBody`). Call `delete()` on it and its trees when done.
 */
export function createJavaScriptParser(grammar: JavaScriptGrammar): Parser {
  const language = loaded?.get(grammar);
  if (language === undefined) throw new Error('JavaScript grammars are not loaded: await loadJavaScriptGrammars() first');
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}
