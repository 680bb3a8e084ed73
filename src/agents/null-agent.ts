import { describeStepError, scriptedRun, type Agent } from './types.js';

/** Submits at once: the untouched workspace must score 0 (a task it passes is broken). */
export function createNullAgent(): Agent {
  return {
    name: 'null',
    model: null,
    async run(_episode, channel) {
      try {
        await channel.step({ kind: 'submit' });
        return scriptedRun('submitted', 'submitted the workspace untouched');
      } catch (err) {
        return scriptedRun('env-error', describeStepError(err));
      }
    },
  };
}
