import type { DeclaredDependency, DependencyRules } from '../language.js';

/**
 * A Go repository's declared dependencies: go.mod's `require`s. Nothing installs them: the sandbox
 * is offline (GOPROXY=off) and Debian's golang-*-dev packages are not mapped yet, so each says why;
 * a repository that vendors its modules (vendor/) builds as it is.
 */
export function declaredGoDependencies(files: ReadonlyMap<string, Buffer>): DeclaredDependency[] {
  const mod = files.get('go.mod')?.toString('utf8');
  if (mod === undefined) return [];
  const out: DeclaredDependency[] = [];
  const requires = [...mod.matchAll(/^require\s+([^\s(]\S*)\s+(\S+)/gm), ...[...mod.matchAll(/^require\s*\(([\s\S]*?)^\)/gm)].flatMap((block) => [...(block[1] ?? '').matchAll(/^\s*(\S+)\s+(\S+)/gm)])];
  for (const [, name] of requires) {
    if (name === undefined || name.startsWith('//')) continue;
    out.push({ name, from: 'go.mod', install: null, why: `Go modules are not fetched (the sandbox is offline): vendor them into the repository (go mod vendor) to build it`, modules: [name] });
  }
  return out;
}

/** The module path a `go` error says no module provides (`no required module provides package x/y`), or null. */
export function missingGoModule(message: string): string | null {
  return /no required module provides package (\S+?)[;:\s]/.exec(message)?.[1] ?? /cannot find module providing package (\S+?)[;:\s]/.exec(message)?.[1] ?? null;
}

export const goDependencyRules: DependencyRules = Object.freeze({
  installer: Object.freeze({
    tool: 'go',
    pin: async (requested: readonly string[]) => [...requested].sort(),
    layer: async () => {
      throw new Error('Go modules are not installed into images: the sandbox is offline (vendor them into the repository)');
    },
  }),
  declared: declaredGoDependencies,
  packageManifests: ['go.mod'],
  missingModule: missingGoModule,
  forModule: () => null,
});
