import { createWriteStream, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { isSourceTarball } from './source-tarball.js';

/**
 * A source tarball given by URL (`https://host/foo-1.2.tar.gz`): downloaded once per process into a
 * private temporary folder (removed when the process exits), then read as a local tarball is.
 */

/** Bytes a downloaded tarball may have: a source release is far smaller. */
export const MAX_DOWNLOAD_BYTES = 512 * 1024 * 1024;
/** How long a download may take, in all. */
const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;

/** True when `source` is an http(s) URL whose path is named as a tarball (`.tar.gz`, `.tgz`, ...). */
export function isTarballUrl(source: string): boolean {
  if (!/^https?:\/\//i.test(source)) return false;
  try {
    return isSourceTarball(decodeURIComponent(new URL(source).pathname));
  } catch {
    return false;
  }
}

/** A download that failed: the message says why (the HTTP status, the size cap, the network error). */
export class DownloadError extends Error {
  override readonly name = 'DownloadError';
}

const downloaded = new Map<string, Promise<string>>();
let folder: string | null = null;
/** Downloads started in this process: each local copy's name starts with its number. */
let started = 0;

/** The local copy of the tarball at `url`, downloaded on the first call for it in this process. */
export function downloadTarball(url: string, signal?: AbortSignal): Promise<string> {
  let copy = downloaded.get(url);
  if (copy === undefined) {
    copy = fetchTo(url, signal);
    downloaded.set(url, copy);
    // a failed download is tried again by the next call
    copy.catch(() => downloaded.delete(url));
  }
  return copy;
}

async function fetchTo(url: string, signal?: AbortSignal): Promise<string> {
  if (folder === null) {
    folder = await mkdtemp(join(tmpdir(), 'codemidas-download-'));
    const made = folder;
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
  }
  const name = decodeURIComponent(new URL(url).pathname).split('/').pop() ?? 'source.tar.gz';
  started += 1;
  const path = join(folder, `${started}-${name.replace(/[^\w.+-]/g, '_')}`);
  const timeout = AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, { signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]), redirect: 'follow' });
  } catch (error) {
    signal?.throwIfAborted();
    throw new DownloadError(`the download failed (${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)})`);
  }
  if (!response.ok || response.body === null) throw new DownloadError(`the server answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > MAX_DOWNLOAD_BYTES) throw new DownloadError(`it is ${declared} bytes, more than the ${MAX_DOWNLOAD_BYTES / 1024 / 1024} MiB a source tarball may have`);
  let received = 0;
  const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  body.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > MAX_DOWNLOAD_BYTES) body.destroy(new DownloadError(`it is more than the ${MAX_DOWNLOAD_BYTES / 1024 / 1024} MiB a source tarball may have`));
  });
  try {
    await pipeline(body, createWriteStream(path));
  } catch (error) {
    rmSync(path, { force: true });
    signal?.throwIfAborted();
    throw error instanceof DownloadError ? error : new DownloadError(`the download broke off (${error instanceof Error ? error.message : String(error)})`);
  }
  return path;
}
