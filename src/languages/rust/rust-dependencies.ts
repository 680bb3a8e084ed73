import type { DeclaredDependency, DependencyRules } from '../language.js';

/** The `[dependencies]`-like sections of a Cargo.toml: their table name and whether only tests need them. */
const SECTIONS: readonly { pattern: RegExp; from: string; forTests: boolean }[] = [
  { pattern: /^dependencies$/, from: 'Cargo.toml [dependencies]', forTests: false },
  { pattern: /^target\..+\.dependencies$/, from: 'Cargo.toml [target.*.dependencies]', forTests: false },
  { pattern: /^dev-dependencies$/, from: 'Cargo.toml [dev-dependencies]', forTests: true },
];

/** Debian's package of a crate's source (`serde_json` → `librust-serde-json-dev`), which puts it under /usr/share/cargo/registry. */
export function debianCratePackage(name: string): string {
  return `librust-${name.toLowerCase().replace(/_/g, '-')}-dev`;
}

/**
 * A Rust repository's declared dependencies: the crates of every Cargo.toml's `[dependencies]`
 * (and `[target.*.dependencies]`, `[dev-dependencies]` for tests), read as text. Nothing installs
 * them yet: the sandbox is offline and cargo reads crates only from Debian's registry folder
 * (/usr/share/cargo/registry), which the rust image leaves empty; each says so, with the Debian
 * package that would provide it. A path dependency (`path = "…"`) is the repository's own.
 */
export function declaredRustDependencies(files: ReadonlyMap<string, Buffer>): DeclaredDependency[] {
  const byName = new Map<string, DeclaredDependency>();
  for (const [path, content] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (path !== 'Cargo.toml' && !path.endsWith('/Cargo.toml')) continue;
    let section: (typeof SECTIONS)[number] | undefined;
    let inlineTable: string | null = null;
    for (const raw of content.toString('utf8').split('\n')) {
      const line = raw.replace(/#.*$/, '').trim();
      const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
      if (header) {
        const name = header[1]!.replace(/["']/g, '');
        section = SECTIONS.find((s) => s.pattern.test(name));
        // `[dependencies.serde]`
        const sub = /^(?:target\..+\.)?(dev-)?dependencies\.(.+)$/.exec(name);
        inlineTable = sub ? sub[2]! : null;
        if (sub) section = sub[1] ? SECTIONS[2] : SECTIONS[0];
        if (inlineTable !== null && section) add(byName, inlineTable, section, '');
        continue;
      }
      if (section === undefined || inlineTable !== null) continue;
      const entry = /^([A-Za-z0-9_-]+)\s*=\s*(.*)$/.exec(line);
      if (entry) add(byName, entry[1]!, section, entry[2]!);
    }
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function add(into: Map<string, DeclaredDependency>, name: string, section: (typeof SECTIONS)[number], spec: string): void {
  if (/\bpath\s*=/.test(spec)) return;
  const existing = into.get(name);
  if (existing !== undefined) {
    if (!section.forTests) delete existing.forTests;
    return;
  }
  into.set(name, {
    name,
    from: section.from,
    install: null,
    why: `Rust crates are not installed into images: the sandbox is offline and cargo reads crates only from Debian's registry folder (/usr/share/cargo/registry), where ${debianCratePackage(name)} would put it; the rust image holds none yet`,
    modules: [name.replace(/-/g, '_')],
    ...(section.forTests ? { forTests: true as const } : {}),
  });
}

/** The crate a cargo error says it cannot find (`no matching package named `serde` found`, `unresolved import `serde``), or null. */
export function missingRustCrate(message: string): string | null {
  return /no matching package named `([^`]+)`/.exec(message)?.[1] ?? /can't find crate for `([^`]+)`/.exec(message)?.[1] ?? /unresolved import `([A-Za-z_]\w*)/.exec(message)?.[1] ?? null;
}

export const rustDependencyRules: DependencyRules = Object.freeze({
  installer: Object.freeze({
    tool: 'cargo',
    pin: async (requested: readonly string[]) => [...requested].sort(),
    layer: async () => {
      throw new Error('Rust crates are not installed into images: the sandbox is offline (vendor them, or use a Debian librust-*-dev package)');
    },
  }),
  declared: declaredRustDependencies,
  packageManifests: ['Cargo.toml'],
  missingModule: missingRustCrate,
  forModule: () => null,
});
