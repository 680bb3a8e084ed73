import { z } from 'zod';

/**
 * The JSON that record.py and mutate.py print (src/languages/python/harness): validated at
 * this edge only, inner code takes the inferred types.
 */
const tagged = z.unknown();

const recordedCaseSchema = z.object({
  id: z.string(),
  module: z.string(),
  target: z.string(),
  init: z
    .object({
      args: z.array(tagged),
      kwargs: z.record(z.string(), tagged),
      /**
       * record.py only: the receiver as the repository's own code held it at the call, rebuilt from its
       * attributes (`object.__new__` + `vars().update`, or `object.__setattr__` each for a class with
       * `__slots__`: `slots`), __init__ not called, its class `type` (the method's owner or a subclass of
       * it that inherits the method); mutate.py gives such a case
       * back as `list(_o.<name>(<args>) for _ in (0,) for _o in (<rebuilt instance>,))`.
       */
      restore: z.object({ type: z.string(), attrs: z.record(z.string(), tagged), slots: z.boolean().optional() }).optional(),
    })
    .nullable(),
  args: z.array(tagged),
  kwargs: z.record(z.string(), tagged),
  expect: z.union([
    z.object({
      returns: tagged,
      /** JavaScript only (runtime/aliases.mjs): [path in result, path in arguments] of each argument object the result is or holds. */
      aliases: z.array(z.unknown()).optional(),
    }),
    z.object({ raises: z.string() }),
  ]),
  argsAfter: z.array(tagged).nullable(),
  source: z.string(),
  /**
   * Python: what the REPL prints for the case's example (worker._shown_outputs), the result's
   * repr (then the state's, for a stated case); absent when a repr is long or fails. The prompt
   * shows it; cases.json never holds it.
   */
  shown: z.array(z.string()).optional(),
  /** Python only: the line the target's call ended on (`line 12`; with its outcome, its behaviour class); cases.json never holds it. */
  path: z.string().optional(),
  /**
   * record.py only: the call returned an iterator (true), or a tuple or list holding iterators
   * ("nested", each iterator element collected), judged on its first items; mutate.py replays the
   * case in that form and gives it back collected (list(islice(...))), without this mark.
   */
  lazy: z.union([z.boolean(), z.literal('nested')]).optional(),
  /**
   * record.py only: the call returned a function, judged on what it returns for these arguments;
   * mutate.py replays the case in that form and gives it back probed
   * (`list(<call>(<probe>) for _ in (0,))`), without this field.
   */
  probe: z.array(tagged).optional(),
  /**
   * record.py only: a constructor target's case, judged by the state the class is left in;
   * mutate.py gives it back as `list(vars(<Class>(<args>)) for _ in (0,))`, without this mark.
   */
  construct: z.boolean().optional(),
  /**
   * record.py only: a method case judged by its result and the instance's state after the call;
   * mutate.py gives it back as `list((<call>, <state of the instance>) for _ in (0,))`, without this mark.
   */
  state: z.boolean().optional(),
  /**
   * record.py only: a property getter's case, judged by the attribute of a built instance;
   * mutate.py gives it back as `list(<instance>.<name> for _ in (0,))`, without this mark.
   */
  attribute: z.boolean().optional(),
  /**
   * record.py only: a method case on an instance this other method (no arguments) was called on
   * first; mutate.py gives it back as `list(_o.<name>(<args>) for ... for _w in (_o.<warm>(),))`,
   * without this field.
   */
  warm: z.string().optional(),
});

const dropSchema = z.object({ code: z.string(), reason: z.string() });

export const recordResultSchema = z.object({
  targets: z.array(
    z.object({
      unitId: z.string(),
      cases: z.array(recordedCaseSchema),
      sources: z.record(z.string(), z.object({ tried: z.number().int(), kept: z.number().int() })),
      rejected: z.record(z.string(), z.number().int()),
      drop: dropSchema.nullable(),
      /** Wall-clock milliseconds the harness spent on this target (for the build summary; never in a suite). */
      ms: z.number().int().optional(),
    }),
  ),
  traces: z.array(
    z.object({
      mode: z.string(),
      timedOut: z.boolean(),
      records: z.number().int(),
      ms: z.number().int().optional(),
      /** The repository's tests that ran (pytest mode). */
      tests: z.number().int().optional(),
      /** Test files that could not be imported, with the error's last line. */
      unimported: z.array(z.object({ file: z.string(), error: z.string() })).optional(),
      /** Third-party modules the tests import that the image lacks, given stand-ins. */
      standIns: z.array(z.string()).optional(),
    }),
  ),
});

const mutationSchema = z.object({
  total: z.number().int(),
  killed: z.number().int(),
  score: z.number(),
  survivors: z.array(z.string()),
});

export const mutateResultSchema = z.object({
  targets: z.array(
    z.object({
      unitId: z.string(),
      mutation: mutationSchema,
      before: mutationSchema,
      /**
       * Present for generator targets and targets with `lazy` or `probe` cases: record.py's cases in
       * the form the task judges them (list(islice(...)) where collected, list(<call>(<probe>) for _
       * in (0,)) where probed), without the `lazy` mark or the `probe`.
       */
      cases: z.array(recordedCaseSchema).optional(),
      newCases: z.array(recordedCaseSchema),
      /** Cases left out after recording, by reason (`no-source`: a case to collect whose inputs have no source form). */
      rejected: z.record(z.string(), z.number().int()).optional(),
      search: z.object({ tried: z.number().int(), found: z.number().int() }),
      baselineMismatches: z.number().int(),
      error: dropSchema.nullable(),
      /** Wall-clock milliseconds on this target, and of them in the mutant-guided search (build summary only). */
      ms: z.number().int().optional(),
      searchMs: z.number().int().optional(),
    }),
  ),
});

export type RecordResult = z.infer<typeof recordResultSchema>;
export type MutateResult = z.infer<typeof mutateResultSchema>;
