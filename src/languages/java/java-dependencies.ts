import type { DeclaredDependency, DependencyRules } from '../language.js';

/**
 * Debian packages that ship a Maven artifact's jar under /usr/share/java, by `groupId:artifactId`
 * (a `groupId:*` entry for a whole group). Only a few are mapped: the name in a reason, never installed.
 */
const DEBIAN_JARS: Readonly<Record<string, string>> = Object.freeze({
  'com.google.guava:guava': 'libguava-java',
  'com.google.code.gson:gson': 'libgoogle-gson-java',
  'org.apache.commons:commons-lang3': 'libcommons-lang3-java',
  'commons-io:commons-io': 'libcommons-io-java',
  'org.apache.commons:commons-collections4': 'libcommons-collections4-java',
  'junit:junit': 'junit4',
  'org.junit.jupiter:*': 'junit5',
  'org.hamcrest:hamcrest': 'libhamcrest-java',
  'org.slf4j:slf4j-api': 'libslf4j-java',
});

function debianPackageOf(group: string, artifact: string): string | undefined {
  return DEBIAN_JARS[`${group}:${artifact}`] ?? DEBIAN_JARS[`${group}:*`];
}

function entry(group: string, artifact: string, from: string, test: boolean): DeclaredDependency {
  const debian = debianPackageOf(group, artifact);
  const why = test
    ? 'only the tests need it: the Java harness never compiles the repository tests'
    : `Maven artifacts are not fetched (the sandbox is offline) and the Java image holds no library jars${debian ? `; Debian's ${debian} ships it under /usr/share/java, which the image does not install yet` : ''}`;
  return { name: `${group}:${artifact}`, from, install: null, why, modules: [group], ...(test ? { forTests: true as const } : {}) };
}

/** The text of an XML element's child (`<groupId>x</groupId>`), or undefined. */
const tag = (xml: string, name: string): string | undefined => new RegExp(`<${name}>\\s*([^<]*?)\\s*</${name}>`).exec(xml)?.[1];

/**
 * A Java repository's declared dependencies: pom.xml's `<dependency>` elements (outside
 * `<dependencyManagement>` and `<plugins>`; `test` and `provided` scopes as tests'), and build.gradle's
 * (`.kts` too) `implementation`/`api`/`compile…`/`test…` string coordinates. Nothing installs them
 * (the sandbox is offline): each says why, naming the Debian package of a few known jars.
 */
export function declaredJavaDependencies(files: ReadonlyMap<string, Buffer>): DeclaredDependency[] {
  const byName = new Map<string, DeclaredDependency>();
  for (const [path, content] of files) {
    const name = path.split('/').at(-1);
    const text = content.toString('utf8');
    if (name === 'pom.xml') {
      const body = text.replace(/<dependencyManagement>[\s\S]*?<\/dependencyManagement>/g, '').replace(/<plugins>[\s\S]*?<\/plugins>/g, '').replace(/<!--[\s\S]*?-->/g, '');
      for (const m of body.matchAll(/<dependency>([\s\S]*?)<\/dependency>/g)) {
        const group = tag(m[1]!, 'groupId');
        const artifact = tag(m[1]!, 'artifactId');
        if (group === undefined || artifact === undefined) continue;
        const scope = tag(m[1]!, 'scope');
        const d = entry(group, artifact, path, scope === 'test' || scope === 'provided');
        if (!byName.has(d.name) || byName.get(d.name)!.forTests) byName.set(d.name, d);
      }
    } else if (name === 'build.gradle' || name === 'build.gradle.kts') {
      for (const m of text.matchAll(/^\s*(\w+)\s*\(?\s*['"]([\w.-]+):([\w.-]+)(?::[^'"]*)?['"]/gm)) {
        const configuration = m[1]!;
        if (!/^(?:implementation|api|compile|compileOnly|runtimeOnly|testImplementation|testCompile|testRuntimeOnly|testCompileOnly)$/.test(configuration)) continue;
        const d = entry(m[2]!, m[3]!, path, configuration.startsWith('test'));
        if (!byName.has(d.name) || byName.get(d.name)!.forTests) byName.set(d.name, d);
      }
    }
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The package a javac error says does not exist (`package com.google.common.base does not exist`), or null. */
export function missingJavaModule(message: string): string | null {
  return /package ([\w.]+) does not exist/.exec(message)?.[1] ?? null;
}

export const javaDependencyRules: DependencyRules = Object.freeze({
  installer: Object.freeze({
    tool: 'java',
    pin: async (requested: readonly string[]) => [...requested].sort(),
    layer: async () => {
      throw new Error('Java dependencies are not installed into images: the sandbox is offline (Maven artifacts are not fetched)');
    },
  }),
  declared: declaredJavaDependencies,
  packageManifests: ['pom.xml', 'build.gradle', 'build.gradle.kts'],
  missingModule: missingJavaModule,
  forModule: () => null,
});
