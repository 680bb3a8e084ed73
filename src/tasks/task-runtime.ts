import { hasDependencies } from '../sandbox/runtime-dependencies.js';
import type { SandboxSpec } from '../sandbox/types.js';
import type { TaskFile } from './task-schema.js';

/**
 * What a task's runtime changes about its language image, as sandbox spec fields: the copies of its
 * library scrubbed from it and the dependencies installed on it (each only when there are some).
 */
export function runtimeSpecFields(runtime: TaskFile['runtime']): Pick<SandboxSpec, 'scrub' | 'dependencies'> {
  return {
    ...(runtime.scrub.length > 0 ? { scrub: runtime.scrub } : {}),
    ...(hasDependencies(runtime.dependencies) ? { dependencies: runtime.dependencies } : {}),
  };
}
