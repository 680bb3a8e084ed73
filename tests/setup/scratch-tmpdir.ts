import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest's global set-up: every test process gets one scratch folder as its TMPDIR, removed when
 * the run ends. Test workers are stopped without Node's `exit` event, so folders a test (or the
 * code under test) meant to remove at exit would otherwise stay in /tmp after every run.
 */
export default function setup(): () => void {
  const scratch = mkdtempSync(join(tmpdir(), 'codemidas-tests-'));
  // like /tmp itself: the judge's subject and relays run as other uids and make their own folders
  chmodSync(scratch, 0o1777);
  process.env.TMPDIR = scratch;
  return () => rmSync(scratch, { recursive: true, force: true });
}
