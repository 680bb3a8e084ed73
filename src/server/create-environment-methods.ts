import type { EpisodeManager } from '../episodes/episode-manager.js';
import { NotFoundError } from '../errors.js';
import type { TaskCatalog } from '../tasks/types.js';
import { encodeReset, encodeReward, encodeStep, encodeTaskInfo } from './encode-responses.js';
import type { UnaryMethod } from './handle-unary-call.js';
import {
  closeRequestSchema,
  getTaskRequestSchema,
  listTasksRequestSchema,
  resetGroupRequestSchema,
  resetRequestSchema,
  rewardGroupRequestSchema,
  rewardRequestSchema,
  stepRequestSchema,
} from './request-schemas.js';

type Methods = Record<string, UnaryMethod<never, unknown>>;

/** The Environment service's methods: decode (schema), call the manager or catalog, encode. */
export function createEnvironmentMethods(manager: EpisodeManager, catalog: TaskCatalog): Methods {
  const method = <Request, Response>(m: UnaryMethod<Request, Response>): UnaryMethod<never, unknown> =>
    m as unknown as UnaryMethod<never, unknown>;
  return {
    ListTasks: method({
      name: 'ListTasks',
      schema: listTasksRequestSchema,
      handler: async (r) => ({
        tasks: catalog
          .list({ ...(r.suite ? { suite: r.suite } : {}), ...(r.language ? { language: r.language } : {}) })
          .map(encodeTaskInfo),
      }),
    }),
    GetTask: method({
      name: 'GetTask',
      schema: getTaskRequestSchema,
      handler: async (r) => {
        const task = catalog.get(r.task_id);
        if (!task) throw new NotFoundError('task', r.task_id, 'ListTasks shows the loaded tasks');
        return { task: encodeTaskInfo(task), prompt: task.file.prompt };
      },
    }),
    Reset: method({
      name: 'Reset',
      schema: resetRequestSchema,
      handler: async (r, ctx) => encodeReset(await manager.reset(r.task_id, { ...callOptions(ctx), seed: r.seed })),
    }),
    ResetGroup: method({
      name: 'ResetGroup',
      schema: resetGroupRequestSchema,
      handler: async (r, ctx) => {
        const group = await manager.resetGroup(r.task_id, r.group_size, { ...callOptions(ctx), seed: r.seed });
        return { group_id: group.groupId, episodes: group.episodes.map(encodeReset) };
      },
    }),
    Step: method({
      name: 'Step',
      schema: stepRequestSchema,
      handler: async (r, ctx) => encodeStep(await manager.step(r.episode_id, r.step_index, r.action, callOptions(ctx))),
    }),
    Reward: method({
      name: 'Reward',
      schema: rewardRequestSchema,
      handler: async (r, ctx) => encodeReward(await manager.reward(r.episode_id, callOptions(ctx))),
    }),
    RewardGroup: method({
      name: 'RewardGroup',
      schema: rewardGroupRequestSchema,
      handler: async (r, ctx) => {
        const group = await manager.rewardGroup(r.group_id, callOptions(ctx));
        return { group_id: group.groupId, rewards: group.rewards.map(encodeReward), advantages: group.advantages, mask: group.mask };
      },
    }),
    Close: method({
      name: 'Close',
      schema: closeRequestSchema,
      handler: async (r) => ({ closed: await manager.close(r) }),
    }),
  };
}

function callOptions(ctx: { signal: AbortSignal; deadline?: Date }): { signal: AbortSignal; deadline?: Date } {
  return ctx.deadline ? { signal: ctx.signal, deadline: ctx.deadline } : { signal: ctx.signal };
}
