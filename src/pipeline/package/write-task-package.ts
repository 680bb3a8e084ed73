import { join } from 'node:path';
import { TASK_LAYOUT } from '../../tasks/package-layout.js';
import type { TaskWorkspace } from '../../tasks/types.js';
import type { MaskedWorkspace } from '../mask/mask-workspace.js';
import { stableJson } from '../write/stable-json.js';
import type { WrittenTask } from '../write/write-task.js';
import { writeFileTree } from './suite-staging.js';

/**
 * Writes one task folder while its suite is being built: task.json, the whole masked `workspace/`
 * (the gates run on it), hidden/, solution/ and, once gated, report.json. `storeSuiteOnce` then
 * turns the suite's workspaces into its base and one overlay per task.
 */
export async function writeTaskPackage(
  taskDir: string,
  taskFile: Record<string, unknown>,
  written: Pick<WrittenTask, 'hidden'>,
  masked: Pick<MaskedWorkspace, 'workspace' | 'solution'>,
  report: Record<string, unknown> | null,
): Promise<void> {
  const files = new Map<string, Buffer>();
  files.set('task.json', Buffer.from(stableJson(taskFile)));
  for (const [p, c] of masked.workspace) files.set(`${TASK_LAYOUT.workspaceDir}/${p}`, c);
  for (const [p, c] of written.hidden) files.set(`hidden/${p}`, c);
  for (const [p, c] of masked.solution) files.set(`solution/${p}`, c);
  if (report) files.set('report.json', Buffer.from(stableJson(report)));
  await writeFileTree(taskDir, files);
}

/** The workspace of a task `writeTaskPackage` wrote (a whole folder until the suite is stored once). */
export function stagedWorkspace(taskDir: string): TaskWorkspace {
  return { layout: 'folder', dir: join(taskDir, TASK_LAYOUT.workspaceDir) };
}
