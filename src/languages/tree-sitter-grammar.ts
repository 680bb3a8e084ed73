import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';

const require = createRequire(import.meta.url);

/** Grammars shipped prebuilt by `tree-sitter-wasms` that the language plugins use. */
export type GrammarName = 'python' | 'javascript' | 'typescript' | 'tsx' | 'go' | 'rust' | 'java';

// web-tree-sitter's runtime (Parser.init) is process-wide by design; the grammars it loads are
// immutable, so loading each once per process is a cache, not shared mutable state.
let runtimeReady: Promise<void> | undefined;
const grammars = new Map<GrammarName, Promise<Language>>();
let lastLoad: Promise<unknown> = Promise.resolve();

/** Loads (once per process) the tree-sitter grammar `name` from `tree-sitter-wasms/out/`. */
export function loadGrammar(name: GrammarName): Promise<Language> {
  let grammar = grammars.get(name);
  if (grammar === undefined) {
    runtimeReady ??= Parser.init();
    const wasmPath = require.resolve(`tree-sitter-wasms/out/tree-sitter-${name}.wasm`);
    // One load at a time: web-tree-sitter links grammars with external scanners (typescript, tsx)
    // wrongly when they load at once ("bad export type for ..._external_scanner_create").
    const ready = runtimeReady;
    grammar = Promise.all([ready, lastLoad]).then(() => Language.load(wasmPath));
    lastLoad = grammar.then(
      () => undefined,
      () => undefined,
    );
    grammars.set(name, grammar);
  }
  return grammar;
}

/** A new parser for `name`; call `delete()` on it (and on each tree) when done, to free wasm memory. */
export async function createParser(name: GrammarName): Promise<Parser> {
  const language = await loadGrammar(name);
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}
