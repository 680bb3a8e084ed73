import { join } from 'node:path';
import { projectRoot } from '../../project-root.js';
import { compareStrings } from '../call-sites.js';
import type { RepoSnapshot, Unit } from '../construction-types.js';
import type { DetectResult, ParseOptions, ParseResult } from '../language-adapter.js';
import type { LanguagePlugin } from '../language.js';
import { javaDependencyRules } from './java-dependencies.js';
import { loadJavaGrammar } from './java-grammar.js';
import { javaLeakRules } from './java-leaks.js';
import { createJavaRecorder } from './java-recorder.js';
import { javaRepoTests } from './java-repo-tests.js';
import { createJavaScorer } from './java-scorer.js';
import { javaTestRunner } from './java-tests.js';
import { javaWorkspaceRules } from './java-workspace.js';
import { javaWriter } from './java-writer.js';
import { maskJavaBody } from './mask-java-body.js';
import { DEFAULT_PACKAGE, isJavaSourceFile, parseJavaUnits } from './parse-java-units.js';

/** The Java sources of a snapshot, and pom.xml or build.gradle: what says a repository is Java. */
export function detectJava(snapshot: RepoSnapshot): DetectResult {
  const files = snapshot.files.filter((f) => f.endsWith('.java') && !f.split('/').some((d) => d === 'target' || d === 'build')).sort();
  const build = ['pom.xml', 'build.gradle', 'build.gradle.kts'].filter((m) => snapshot.files.includes(m));
  const sources = files.filter(isJavaSourceFile).length;
  return {
    language: 'java',
    detected: sources > 0,
    files,
    reason: files.length > 0 ? `${files.length} Java files (${sources} outside tests)${build.length > 0 ? `, ${build.join(', ')}` : ''}` : 'no .java files',
  };
}

/** The library as the prompt names it: a Java library and its packages. */
export function describeJavaLibrary(units: readonly Unit[]): string {
  const packages = [...new Set(units.map((u) => u.module))].sort(compareStrings);
  const shown = packages.slice(0, 5).map((p) => (p === DEFAULT_PACKAGE ? 'the default package' : `\`${p}\``)).join(', ');
  return packages.length === 0 ? 'a Java library' : `a Java library (packages ${shown}${packages.length > 5 ? ', ...' : ''})`;
}

/**
 * Units the driver cannot call yet: members of abstract classes that need an instance (private ones
 * it calls through reflection; generic ones with `Integer` or `String` for their type variables). An
 * overload is called like any member: the driver binds each argument to a variable of its parameter's
 * type, so javac picks that overload (through reflection, its erased parameter types name it).
 */
export function unbuildableJava(unit: Unit): { code: string; reason: string } | null {
  const d = unit.decorators;
  if (d.includes('abstract-class')) return { code: 'abstract-class', reason: 'an instance member or constructor of an abstract class: the harness cannot build one' };
  return null;
}

async function parseJava(snapshot: RepoSnapshot, options?: ParseOptions): Promise<ParseResult> {
  // masking and repository-test masking parse synchronously with the grammar this loads
  await loadJavaGrammar();
  return parseJavaUnits(snapshot, options);
}

/**
 * Java (first version): tree-sitter units of a library's top-level classes (methods and
 * constructors, package-private and private ones too), a record and mutate harness and a judge that compile a
 * generated driver class into the target's package with javac (runtime/), the `java` runner, the
 * `java` image (Debian's default-jdk-headless, OpenJDK 17, offline).
 */
export function createJavaPlugin(): LanguagePlugin {
  const plugin: LanguagePlugin = {
    language: 'java',
    detect: detectJava,
    parseUnits: parseJava,
    harnessDir: join(projectRoot(), 'src', 'languages', 'java', 'runtime'),
    maskBody: maskJavaBody,
    runnerImage: 'java',
    taskLanguages: ['java'],
    displayName: 'Java',
    codeFence: 'java',
    image: 'java',
    testRunners: [javaTestRunner],
    createScorer: ({ provider, logger }) => createJavaScorer({ provider, logger }),
    unbuildable: unbuildableJava,
    isSourceFile: isJavaSourceFile,
    describeLibrary: describeJavaLibrary,
    recorder: createJavaRecorder(),
    writer: javaWriter,
    repoTests: javaRepoTests,
    selection: Object.freeze({ settlesAsync: false, receiverInParams: false, staticMarker: 'static' }),
    values: Object.freeze({
      description: 'Every value is a Java expression as source text, written in a class of the target\'s package: "42", "42L", "\\"abc\\"", "\'a\'", "new int[] {1, 2}", "new java.util.ArrayList<>(java.util.List.of(\\"a\\"))", "new Vec2(1.0, 2.0)", "null".',
      isPlainValue: (value: unknown) => typeof value === 'string',
      keywordArguments: false,
    }),
    rootBuildDirs: Object.freeze(['target', 'build']),
    leaks: javaLeakRules,
    workspace: javaWorkspaceRules,
    dependencies: javaDependencyRules,
  };
  return Object.freeze(plugin);
}
