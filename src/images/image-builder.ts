import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type Dockerode from 'dockerode';
import tar from 'tar-stream';
import type { Logger } from '../logging.js';
import { UnavailableError } from '../errors.js';
import { projectRoot as findProjectRoot } from '../project-root.js';

/**
 * The name of a language's runtime image: a folder `sandbox-images/<name>/` holding its Dockerfile
 * (`python`, `node`). A language plugin names its image (`LanguagePlugin.image`); adding one is
 * adding a folder.
 */
export type ImageLanguage = string;

/** The runtime images of a checkout: the folders of `sandbox-images/` with a Dockerfile, sorted (`base` is built by a script, not a Dockerfile). */
export function imageLanguages(root: string = findProjectRoot()): ImageLanguage[] {
  let names: string[];
  try {
    names = readdirSync(join(root, 'sandbox-images')).sort();
  } catch {
    return [];
  }
  return names.filter((name) => name !== 'base' && statSync(join(root, 'sandbox-images', name, 'Dockerfile'), { throwIfNoEntry: false })?.isFile() === true);
}

/**
 * Content-hash tags: a tag changes exactly when something that goes into its image changes. `base`,
 * and one per runtime image by its name (`python`, `node`).
 */
export type ImageTags = { readonly base: string } & Readonly<Record<ImageLanguage, string>>;

/** A line of progress from `ensureImages`, for a CLI to print. */
export interface ImageProgress {
  image: string;
  phase: 'present' | 'building' | 'log' | 'built';
  message: string;
  /** Set on `built`: how long the build took. */
  elapsedMs?: number;
}

export interface EnsureImagesOptions {
  docker: Dockerode;
  logger: Logger;
  /** Language images to make sure of; the base image is always included. Default: all. */
  languages?: readonly ImageLanguage[];
  onProgress?: (event: ImageProgress) => void;
  /** Default: `projectRoot()`. */
  projectRoot?: string;
  /** Rebuild even when a tag is present. Default false. */
  force?: boolean;
}

export interface EnsureImagesResult {
  tags: ImageTags;
  /** Tags built by this call (empty when everything was present). */
  built: string[];
}

const HASH_LENGTH = 12;

/**
 * Files whose content goes into a language image's hash and build context, relative to the root,
 * and the npm packages its Dockerfile unpacks (`sandbox-images/<language>/npm-packages.txt`: one
 * `name@version` a line, `#` comments; fetched with `npm pack`, which checks each tarball against
 * the registry's integrity, into the context's `npm/` folder). The version pins are in the hash.
 */
function languageInputs(root: string, language: ImageLanguage): { dockerfile: string; relay: string; npmPackages: string[]; sources: ImageSources[] } {
  return {
    sources: readImageSources(root, join(root, 'sandbox-images', language, 'sources.txt')),
    npmPackages: readNpmPackages(join(root, 'sandbox-images', language, 'npm-packages.txt')),
    dockerfile: join(root, 'sandbox-images', language, 'Dockerfile'),
    relay: join(root, 'src', 'sandbox', 'relay', 'relay.py'),
  };
}

/** Regular files under `dir` (recursive, sorted, relative), minus bytecode caches. */
function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (current: string): void => {
    let names: string[];
    try {
      names = readdirSync(current).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (name === '__pycache__' || name.endsWith('.pyc')) continue;
      const full = join(current, name);
      const stat = statSync(full, { throwIfNoEntry: false });
      if (stat?.isDirectory()) walk(full);
      else if (stat?.isFile()) out.push(relative(dir, full));
    }
  };
  walk(dir);
  return out;
}

export function shortHash(parts: (string | Buffer)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) {
    hash.update(part);
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, HASH_LENGTH);
}

/**
 * The tags the images built from this checkout get: `codemidas/base:<hash of build.sh>`,
 * `codemidas/<language>:<hash of the base tag, the Dockerfile, relay.py, the npm pins and the files of sources.txt>`.
 */
export function imageTags(root: string = findProjectRoot()): ImageTags {
  const base = `codemidas/base:${shortHash([readFileSync(join(root, 'sandbox-images', 'base', 'build.sh'))])}`;
  const tagFor = (language: ImageLanguage): string => {
    const inputs = languageInputs(root, language);
    const parts: (string | Buffer)[] = [base, readFileSync(inputs.dockerfile), readFileSync(inputs.relay)];
    // added only when there are some, so the tags of images without npm packages stay as they were
    if (inputs.npmPackages.length > 0) parts.push('npm-packages', ...inputs.npmPackages);
    for (const source of inputs.sources) for (const file of source.files) parts.push(`opt/${source.to}/${file}`, readFileSync(join(source.from, file)));
    return `codemidas/${language}:${shortHash(parts)}`;
  };
  const tags: Record<string, string> = { base };
  for (const language of imageLanguages(root)) tags[language] = tagFor(language);
  return tags as ImageTags;
}

const inFlight = new Map<string, Promise<void>>();

/**
 * Builds the sandbox images that are missing (base with `sandbox-images/base/build.sh`, language
 * images with the engine's build API), and leaves present ones alone. Concurrent calls in one
 * process share builds.
 */
export async function ensureImages(options: EnsureImagesOptions): Promise<EnsureImagesResult> {
  const root = options.projectRoot ?? findProjectRoot();
  const tags = imageTags(root);
  const logger = options.logger.child({ component: 'images' });
  const progress = (event: ImageProgress): void => {
    if (event.phase !== 'log') logger.info({ image: event.image, phase: event.phase, elapsedMs: event.elapsedMs }, event.message);
    options.onProgress?.(event);
  };
  const built: string[] = [];
  const once = async (tag: string, build: () => Promise<void>): Promise<void> => {
    if (!options.force && (await imageExists(options.docker, tag))) {
      progress({ image: tag, phase: 'present', message: `${tag} is present` });
      return;
    }
    let running = inFlight.get(tag);
    if (!running) {
      running = (async () => {
        const started = performance.now();
        progress({ image: tag, phase: 'building', message: `building ${tag}` });
        await build();
        const elapsedMs = Math.round(performance.now() - started);
        built.push(tag);
        progress({ image: tag, phase: 'built', message: `built ${tag} in ${(elapsedMs / 1000).toFixed(1)} s`, elapsedMs });
      })().finally(() => inFlight.delete(tag));
      inFlight.set(tag, running);
    }
    await running;
  };

  await once(tags.base, () => buildBase(root, tags.base, (line) => progress({ image: tags.base, phase: 'log', message: line })));
  for (const language of options.languages ?? imageLanguages(root)) {
    const tag = tags[language];
    if (tag === undefined) throw new UnavailableError(`no sandbox image '${language}': sandbox-images/${language}/Dockerfile is missing (images here: ${imageLanguages(root).join(', ')})`);
    await once(tag, () =>
      buildLanguage(options.docker, root, language, tags.base, tag, (line) => progress({ image: tag, phase: 'log', message: line })),
    );
  }
  return { tags, built };
}

export async function imageExists(docker: Dockerode, tag: string): Promise<boolean> {
  try {
    await docker.getImage(tag).inspect();
    return true;
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return false;
    throw new UnavailableError(
      `the container engine does not answer (${(error as Error).message}): run 'bash scripts/setup-engine.sh' (as root) or start dockerd`,
      { cause: error },
    );
  }
}

function buildBase(root: string, tag: string, onLine: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [join(root, 'sandbox-images', 'base', 'build.sh'), tag], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CI: 'true', DEBIAN_FRONTEND: 'noninteractive' },
    });
    const tail: string[] = [];
    const onData = (chunk: Buffer): void => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        tail.push(line);
        if (tail.length > 30) tail.shift();
        onLine(line);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new UnavailableError(`building ${tag} failed (build.sh exited ${code}):\n${tail.join('\n')}`));
    });
  });
}

/** The build context: the Dockerfile, relay.py, the npm tarballs under npm/ and the folders of sources.txt under opt/. */
export async function languageBuildContext(root: string, language: ImageLanguage): Promise<Buffer> {
  const inputs = languageInputs(root, language);
  const tarballs = await packNpmPackages(inputs.npmPackages);
  return packTar((pack) => {
    if (tarballs.length > 0) pack.entry({ name: 'npm', type: 'directory', mode: 0o755, uid: 0, gid: 0 });
    for (const tarball of tarballs) pack.entry({ name: `npm/${tarball.name}`, type: 'file', mode: 0o644, uid: 0, gid: 0, size: tarball.content.length }, tarball.content);
    for (const source of inputs.sources) {
      for (const dir of foldersOf(`opt/${source.to}`, source.files)) pack.entry({ name: dir, type: 'directory', mode: 0o755, uid: 0, gid: 0 });
      for (const file of source.files) {
        const content = readFileSync(join(source.from, file));
        pack.entry({ name: `opt/${source.to}/${file}`, type: 'file', mode: 0o644, uid: 0, gid: 0, size: content.length }, content);
      }
    }
    const file = (name: string, content: Buffer): void => {
      pack.entry({ name, type: 'file', mode: 0o644, uid: 0, gid: 0, size: content.length }, content);
    };
    file('Dockerfile', readFileSync(inputs.dockerfile));
    file('relay.py', readFileSync(inputs.relay));
  });
}

/** A folder of this checkout copied into a language image, below `/opt/codemidas/<to>/` (the Dockerfile's `COPY opt/ /opt/codemidas/`). */
interface ImageSources {
  /** Absolute folder in the checkout. */
  from: string;
  /** Folder below /opt/codemidas. */
  to: string;
  /** Its regular files, relative, sorted. */
  files: string[];
}

/**
 * The `sources.txt` of a language image: `<folder of the checkout> <folder below /opt/codemidas>`
 * a line, `#` comments (the JavaScript judge's runtime files for the node image); none when absent.
 */
function readImageSources(root: string, path: string): ImageSources[] {
  return readListFile(path).map((line) => {
    const [from, to, extra] = line.split(/\s+/);
    if (from === undefined || to === undefined || extra !== undefined || !/^[a-z0-9][a-z0-9._/-]*$/.test(to) || to.split('/').includes('..')) {
      throw new Error(`${path}: expected '<folder of the checkout> <folder below /opt/codemidas>', got '${line}'`);
    }
    const dir = join(root, from);
    return { from: dir, to, files: listFiles(dir) };
  });
}

/** Every folder from `top` down to the folders holding `files` (relative to `top`), parents first. */
function foldersOf(top: string, files: readonly string[]): string[] {
  const out = new Set<string>();
  const parts = top.split('/');
  for (let i = 1; i <= parts.length; i++) out.add(parts.slice(0, i).join('/'));
  for (const file of files) {
    const segments = file.split('/').slice(0, -1);
    for (let i = 1; i <= segments.length; i++) out.add(`${top}/${segments.slice(0, i).join('/')}`);
  }
  return [...out].sort();
}

/** `name@version` lines of an npm-packages.txt; none when the file is absent. */
function readNpmPackages(path: string): string[] {
  return readListFile(path);
}

/** The lines of a list file of `sandbox-images/<image>/`, `#` comments and blank lines left out; none when the file is absent. */
function readListFile(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line !== '');
}

/** Each package's tarball, fetched by `npm pack` (from npm's cache when it has it). */
async function packNpmPackages(specs: readonly string[]): Promise<{ name: string; content: Buffer }[]> {
  if (specs.length === 0) return [];
  const dir = mkdtempSync(join(tmpdir(), 'codemidas-npm-pack-'));
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn('npm', ['pack', '--silent', '--pack-destination', dir, ...specs], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString('utf8')).slice(-4000);
      });
      child.on('error', (error) => reject(new UnavailableError(`could not run npm to fetch ${specs.join(', ')} for a sandbox image: ${error.message}`)));
      child.on('close', (code) =>
        code === 0 ? resolve() : reject(new UnavailableError(`npm pack ${specs.join(' ')} failed (exit ${code}): check that the npm registry is reachable\n${stderr}`)),
      );
    });
    return readdirSync(dir)
      .filter((name) => name.endsWith('.tgz'))
      .sort()
      .map((name) => ({ name, content: readFileSync(join(dir, name)) }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A tar archive in memory, its entries added by `fill`. */
function packTar(fill: (pack: tar.Pack) => void): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pack.on('data', (chunk: unknown) => {
      chunks.push(chunk as Buffer);
    });
    pack.on('end', () => resolve(Buffer.concat(chunks)));
    pack.on('error', reject);
  });
  fill(pack);
  pack.finalize();
  return done;
}

async function buildLanguage(
  docker: Dockerode,
  root: string,
  language: ImageLanguage,
  baseTag: string,
  tag: string,
  onLine: (line: string) => void,
): Promise<void> {
  const context = await languageBuildContext(root, language);
  await buildFromContext(docker, context, { t: tag, buildargs: { BASE_IMAGE: baseTag }, labels: { 'codemidas.image': language } }, onLine);
}

/** Runs the engine's build API on a tar context and waits for it; a failed step rejects with its message. */
export async function buildFromContext(
  docker: Dockerode,
  context: Buffer,
  options: { t: string; buildargs?: Record<string, string>; labels: Record<string, string> },
  onLine: (line: string) => void,
): Promise<void> {
  const tag = options.t;
  const stream = await docker.buildImage(context as unknown as NodeJS.ReadableStream, { ...options, rm: true, forcerm: true });
  await new Promise<void>((resolve, reject) => {
    docker.modem.followProgress(
      stream,
      (error: Error | null, events: { error?: string; errorDetail?: { message?: string } }[]) => {
        const failed = events?.find((event) => event.error);
        if (error) reject(error);
        else if (failed) reject(new UnavailableError(`building ${tag} failed: ${failed.errorDetail?.message ?? failed.error}`));
        else resolve();
      },
      (event: { stream?: string; status?: string }) => {
        const text = (event.stream ?? event.status ?? '').trim();
        if (text) onLine(text);
      },
    );
  });
}

/**
 * The tag of `image` with `scrub` deleted: `<repository of image>-scrubbed:<hash of image and paths>`.
 * The paths must have passed `scrubPathProblem` (they are written into a shell command).
 */
export function scrubbedImageTag(image: string, scrub: readonly string[]): string {
  const colon = image.lastIndexOf(':');
  const repository = colon > image.lastIndexOf('/') ? image.slice(0, colon) : image;
  return `${repository}-scrubbed:${shortHash([image, ...scrub])}`;
}

/**
 * Builds (when missing) the derived image of `image` with the `scrub` paths deleted, one layer of
 * whiteouts on top of it; returns its tag. Concurrent calls in one process share the build.
 */
export async function ensureScrubbedImage(options: {
  docker: Dockerode;
  image: string;
  scrub: readonly string[];
  logger: Logger;
  onLine?: (line: string) => void;
}): Promise<string> {
  const tag = scrubbedImageTag(options.image, options.scrub);
  if (await imageExists(options.docker, tag)) return tag;
  let running = inFlight.get(tag);
  if (!running) {
    running = (async () => {
      const started = performance.now();
      const quoted = options.scrub.map((path) => `'${path}'`).join(' ');
      // USER root: the language image may run as another user; every sandbox sets its user anyway.
      const dockerfile = `FROM ${options.image}\nUSER root\nRUN rm -rf -- ${quoted}\n`;
      await buildFromContext(
        options.docker,
        await packTar((pack) => pack.entry({ name: 'Dockerfile', type: 'file', mode: 0o644, uid: 0, gid: 0, size: Buffer.byteLength(dockerfile) }, dockerfile)),
        { t: tag, labels: { 'codemidas.image': 'scrubbed', 'codemidas.scrubbed-from': options.image } },
        options.onLine ?? (() => undefined),
      );
      options.logger.info({ image: tag, from: options.image, scrub: options.scrub, elapsedMs: Math.round(performance.now() - started) }, 'built the scrubbed image');
    })().finally(() => inFlight.delete(tag));
    inFlight.set(tag, running);
  }
  await running;
  return tag;
}
