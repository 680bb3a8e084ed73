// ESM loader hook of mutant.mjs: the one mutated file's URL loads the mutated source.
let mutant = null;

export function initialize(data) {
  mutant = data;
}

export async function load(url, context, next) {
  if (mutant !== null && url === mutant.url) return { format: 'module', source: mutant.source, shortCircuit: true };
  return next(url, context);
}
