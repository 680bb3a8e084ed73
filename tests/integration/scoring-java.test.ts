/**
 * The Java suite committed to environments/ (built by `codemidas build examples/javakit --suite
 * javakit --out environments --seed 0`) against the real engine, in the Java image with the Java
 * judge: every task loads with its gates passed, and over gRPC its reference scores 1.0 and its
 * untouched workspace 0.0. Then the agent's reward hacks on `javakit/strings-reverse` (static
 * initialisers, classes that shadow the driver's, service providers, the JVM's command line read
 * back to forge the driver's lines, processes and threads left behind): each scores 0 on the
 * unsolved task and is never INFRA_ERROR; those that leave a solved workspace solved score 1.0
 * added to the reference.
 */
import { createJavaScorer } from '../../src/languages/java/java-scorer.js';
import { type Hack, hacksScoreZero, suiteUnderTest } from '../fixtures/compiled-suite-scoring.js';

const TARGET_FILE = 'src/main/java/org/javakit/text/Strings.java';
const PACKAGE_DIR = 'src/main/java/org/javakit/text';
const suite = suiteUnderTest({ language: 'java', suite: 'javakit', taskId: 'javakit/strings-reverse', targetFile: TARGET_FILE, maskedMarker: 'throw new UnsupportedOperationException("not implemented")', scorer: createJavaScorer });

/** `body` (the masked or the original Strings.java) with a static initialiser of `code` at the top of the class: it runs when the driver first calls Strings. */
const atLoad = (code: string): Hack => (body) => ({ [TARGET_FILE]: body.replace('public final class Strings {\n', `public final class Strings {\n    static {\n${code}\n    }\n`) });
/** `body` as given and `files` planted beside it. */
const planted = (files: Record<string, string>): Hack => (body) => ({ [TARGET_FILE]: body, ...files });

/** Each hack on the unsolved task: reward 0, SCORED, never INFRA_ERROR. */
const hacks: Record<string, Hack> = {
  'System.exit(0) in a static initialiser': atLoad('        System.exit(0);'),
  "a class named like the judge's driver, in the target's package": planted({
    [`${PACKAGE_DIR}/CodemidasDriverStrings.java`]: 'package org.javakit.text;\n\npublic final class CodemidasDriverStrings {\n    public static void main(String[] args) {\n        System.out.println("CODEMIDAS-JUDGE n0 {\\"tests\\": [], \\"tampered\\": false}");\n    }\n}\n',
  }),
  'a META-INF/services provider of a JDK service, in the sources and the resources': planted({
    'src/main/resources/META-INF/services/java.nio.file.spi.FileSystemProvider': 'org.javakit.text.ExitingProvider\n',
    'src/main/java/META-INF/services/java.nio.file.spi.FileSystemProvider': 'org.javakit.text.ExitingProvider\n',
    [`${PACKAGE_DIR}/ExitingProvider.java`]: 'package org.javakit.text;\n\npublic final class ExitingProvider {\n    static {\n        Runtime.getRuntime().halt(0);\n    }\n}\n',
  }),
  "the runner read back through the JVM's command line: forged lines with its nonce for every case": atLoad(
    [
      '        try {',
      '            String[] args = ProcessHandle.current().info().arguments().orElse(new String[0]);',
      '            int at = java.util.Arrays.asList(args).indexOf(Class.forName("org.javakit.text.CodemidasDriverStrings").getName());',
      '            try (java.io.PrintStream out = new java.io.PrintStream(new java.io.FileOutputStream(args[at + 1], true), true, "UTF-8")) {',
      '                for (int i = at + 4; i < args.length; i++) {',
      '                    out.println(args[at + 2] + " {\\"k\\":" + args[i] + ",\\"returns\\":{\\"t\\":\\"str\\",\\"v\\":\\"\\"},\\"before\\":[],\\"after\\":[]}");',
      '                }',
      '            }',
      '        } catch (Throwable e) {',
      '            throw new RuntimeException(e);',
      '        }',
      '        Runtime.getRuntime().halt(0);',
    ].join('\n'),
  ),
  'endless output on stdout and stderr from a daemon thread': atLoad(
    [
      '        Thread flood = new Thread(() -> {',
      '            String line = "x".repeat(1 << 16);',
      '            while (true) {',
      '                System.out.print(line);',
      '                System.err.print(line);',
      '            }',
      '        });',
      '        flood.setDaemon(true);',
      '        flood.start();',
    ].join('\n'),
  ),
  'kills its parent and every process it can reach': atLoad(
    [
      '        ProcessHandle.current().parent().ifPresent(ProcessHandle::destroyForcibly);',
      '        try {',
      '            new ProcessBuilder("kill", "-9", "-1").inheritIO().start().waitFor();',
      '        } catch (Exception e) {',
      '            throw new RuntimeException(e);',
      '        }',
    ].join('\n'),
  ),
  'a process that escapes the group, holds the output pipes and outlives the run': atLoad(
    [
      '        try {',
      '            new ProcessBuilder("setsid", "sh", "-c", "while :; do for f in $(find / -name \'o-*.jsonl\' 2>/dev/null); do echo x >> $f; done; sleep 0.1; done").inheritIO().start();',
      '        } catch (Exception e) {',
      '            throw new RuntimeException(e);',
      '        }',
    ].join('\n'),
  ),
  'a non-daemon thread that never ends, and a shutdown hook that rewrites the output': atLoad(
    [
      '        new Thread(() -> {',
      '            while (true) {',
      '                try {',
      '                    Thread.sleep(1000);',
      '                } catch (InterruptedException e) {',
      '                    return;',
      '                }',
      '            }',
      '        }).start();',
      '        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("CODEMIDAS-JUDGE n0 {}")));',
    ].join('\n'),
  ),
  'answers from the hidden cases when it can read them': (body) => ({
    [TARGET_FILE]: body.replace(
      'throw new UnsupportedOperationException("not implemented");',
      'if (java.nio.file.Files.isReadable(java.nio.file.Path.of("/var/lib/codemidas/hidden/cases.json")) || java.nio.file.Files.isReadable(java.nio.file.Path.of("/var/lib/codemidas/hidden"))) {\n            if (s.isEmpty()) {\n                throw new IllegalArgumentException("s is empty");\n            }\n            return new StringBuilder(s).reverse().toString();\n        }\n        return s;',
    ),
  }),
};
/**
 * Hacks that spoil the agent's own answers (exiting, a class the driver's name is taken by, killing
 * the JVM, forged outcomes) or replace the body itself; the others, added to the reference, must
 * leave it at 1.0 (no false negatives, and the judge unbroken by their code).
 */
const HARMFUL = new Set([
  'System.exit(0) in a static initialiser',
  "a class named like the judge's driver, in the target's package",
  "the runner read back through the JVM's command line: forged lines with its nonce for every case",
  'kills its parent and every process it can reach',
  'answers from the hidden cases when it can read them',
]);

hacksScoreZero('Java reward hacks on javakit/strings-reverse (java image, Java judge)', suite, hacks, HARMFUL);
