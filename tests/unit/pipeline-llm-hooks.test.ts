/**
 * The LLM hooks of construction (src/pipeline/llm/) with a scripted fake ChatClient: the spec
 * writer keeps a good rewrite and rejects empty, leaking, signature-less and invented-example ones,
 * and caches its answers on disk; the input proposer's inputs (never its outputs) reach record.py's
 * config with source `llm` and are recorded by running the original code; the assertion reviewer's
 * flagged cases are dropped within the write stage's bounds; an LlmError falls back.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LlmError } from '../../src/llm/errors.js';
import type { ChatClient, ChatRequest, ChatResponse } from '../../src/llm/types.js';
import { createSilentLogger } from '../../src/logging.js';
import { createLlmAssertionReviewer } from '../../src/pipeline/llm/llm-assertion-reviewer.js';
import { createLlmInputProposer } from '../../src/pipeline/llm/llm-input-proposer.js';
import { createLlmSpecWriter } from '../../src/pipeline/llm/llm-spec-writer.js';
import { recordCandidates } from '../../src/pipeline/record/record-candidates.js';
import type { RecordedCase, Recording, RepoSnapshot, Unit } from '../../src/pipeline/types.js';
import { renderPrompt } from '../../src/languages/python/render-prompt.js';
import type { ReferenceCode } from '../../src/pipeline/write/spec-writer.js';
import { writeTask } from '../../src/pipeline/write/write-task.js';
import { createMemorySandboxProvider } from '../../src/sandbox/memory/memory-sandbox-provider.js';
import { makeUnit } from '../fixtures/units.js';
import { createPythonPlugin } from '../../src/languages/python/python-plugin.js';
import { createJavaScriptPlugin } from '../../src/languages/javascript/javascript-plugin.js';

const python = createPythonPlugin();
import { runHarness, target } from './pipeline-harness-helpers.js';

/** Answers with the scripted texts in turn (or throws a scripted error); counts and keeps the requests. */
function scriptedClient(answers: (string | Error)[]): ChatClient & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    model: 'fake-model',
    requests,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      requests.push(request);
      const next = answers.shift();
      if (next === undefined) throw new Error('the test scripted no more answers');
      if (next instanceof Error) throw next;
      return { message: { role: 'assistant', content: next, toolCalls: [] }, finishReason: 'stop', usage: null };
    },
  };
}

const int = (n: number): { t: string; v: string } => ({ t: 'int', v: String(n) });

const unit: Unit = makeUnit({
  id: 'mini.core:clamp',
  module: 'mini.core',
  qualname: 'clamp',
  file: 'mini/core.py',
  signature: 'def clamp(x, low, high):',
  docstring: 'Clamps x into [low, high].',
});
const reference: ReferenceCode = {
  definition: 'def clamp(x, low, high):\n    """Clamps x into [low, high]."""\n    if x < low:\n        return low\n    return min(x, high)',
  body: '    if x < low:\n        return low\n    return min(x, high)',
};

function caseOf(n: number, x: number, expected: number): RecordedCase {
  return { id: `clamp-${n}`, module: 'mini.core', target: 'clamp', init: null, args: [int(x), int(0), int(10)], kwargs: {}, expect: { returns: int(expected) }, argsAfter: null, source: 'type-hint' };
}
const cases = [caseOf(1, -5, 0), caseOf(2, 5, 5), caseOf(3, 50, 10)];
const draft = renderPrompt({ unit, cases, libraryName: 'the Python package `mini`' });
const goodSpec = draft.replace('## Signature', 'Limits `x` to the closed range from `low` to `high`: a value below `low` gives `low`, one above `high` gives `high`, anything else comes back unchanged.\n\n## Signature');

describe('createLlmSpecWriter', () => {
  let cacheDir: string;
  beforeEach(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'codemidas-llm-cache-'));
  });
  afterEach(async () => {
    await rm(cacheDir, { recursive: true, force: true });
  });

  const rewrite = async (answer: string | Error): Promise<{ spec: string | null; fallbacks: string[]; client: ReturnType<typeof scriptedClient> }> => {
    const client = scriptedClient([answer]);
    const fallbacks: string[] = [];
    const spec = await createLlmSpecWriter(client, { language: python, seed: 3 }).rewrite({ unit, draft, cases, reference, onFallback: (r) => fallbacks.push(r) });
    return { spec, fallbacks, client };
  };

  it('keeps a rewrite that describes behaviour, keeps the signature and invents no example', async () => {
    const { spec, fallbacks, client } = await rewrite(`\`\`\`markdown\n${goodSpec}\`\`\``);
    expect(spec).toBe(goodSpec.trimEnd() + '\n');
    expect(fallbacks).toEqual([]);
    const sent = client.requests[0];
    expect(sent?.seed).toBe(3);
    expect(sent?.temperature).toBe(0);
    // the model sees the reference and the draft with its recorded examples
    expect(sent?.messages.map((m) => ('content' in m ? m.content : '')).join('\n')).toContain('return min(x, high)');
    expect(sent?.messages.map((m) => ('content' in m ? m.content : '')).join('\n')).toContain('>>> clamp(-5, 0, 10)');
  });

  it('keeps the draft when the answer is empty', async () => {
    const { spec, fallbacks } = await rewrite('   \n');
    expect(spec).toBeNull();
    expect(fallbacks).toEqual(['empty']);
  });

  it('keeps the draft when the rewrite pastes the reference body', async () => {
    const leaking = goodSpec.replace('## Signature', 'It works like this:\n\n```python\nif x < low:\n    return low\nreturn min(x, high)\n```\n\n## Signature');
    const { spec, fallbacks } = await rewrite(leaking);
    expect(spec).toBeNull();
    expect(fallbacks).toEqual(['leak']);
  });

  it('keeps the draft when the rewrite drops the signature or invents an example', async () => {
    expect((await rewrite(goodSpec.replace('def clamp(x, low, high):', 'def clamp(x):'))).fallbacks).toEqual(['no-signature']);
    expect((await rewrite(goodSpec.replace('>>> clamp(5, 0, 10)', '>>> clamp(7, 0, 10)'))).fallbacks).toEqual(['invented-example']);
  });

  it('answers a request it has seen from the cache, without asking the model again', async () => {
    const client = scriptedClient([goodSpec]);
    const first = await createLlmSpecWriter(client, { language: python, seed: 3, cacheDir }).rewrite({ unit, draft, cases, reference });
    // a fresh writer over a client that would fail: the answer comes from disk
    const failing = scriptedClient([new LlmError('endpoint-down', 'nothing answers')]);
    const second = await createLlmSpecWriter(failing, { language: python, seed: 3, cacheDir }).rewrite({ unit, draft, cases, reference });
    expect(client.requests).toHaveLength(1);
    expect(failing.requests).toHaveLength(0);
    expect(second).toBe(first);
    expect(first).not.toBeNull();
    expect(await readdir(cacheDir)).toHaveLength(1);
    // another seed is another request
    const other = scriptedClient([goodSpec]);
    await createLlmSpecWriter(other, { language: python, seed: 4, cacheDir }).rewrite({ unit, draft, cases, reference });
    expect(other.requests).toHaveLength(1);
  });

  it('falls back to the draft on an LlmError and says which', async () => {
    const { spec, fallbacks } = await rewrite(new LlmError('endpoint-down', 'nothing answers at http://127.0.0.1:9/v1'));
    expect(spec).toBeNull();
    expect(fallbacks).toEqual(['llm-error:endpoint-down']);
  });
});

describe('createLlmInputProposer', () => {
  const propose = async (answer: string | Error, maxProposals?: number): Promise<{ proposals: unknown[]; fallbacks: string[] }> => {
    const fallbacks: string[] = [];
    const proposer = createLlmInputProposer(scriptedClient([answer]), { language: python, ...(maxProposals === undefined ? {} : { maxProposals }) });
    const proposals = await proposer.propose({ unit, existing: [], seed: 0, reference, onFallback: (r) => fallbacks.push(r) });
    return { proposals, fallbacks };
  };

  it('takes well-formed tagged inputs, ignores any expected value the model wrote and skips values that are not plain data', async () => {
    const answer = [
      'Here are some inputs:',
      '```json',
      JSON.stringify({
        inputs: [
          { args: [int(11), int(0), int(10)], kwargs: {}, init: null, expect: { returns: int(999) } },
          { args: [{ t: 'repr', v: '__import__("os").getcwd()' }], kwargs: {} },
          { args: [int(-1)], kwargs: { low: int(0), high: int(3) } },
          { args: [{ t: 'int', v: 'seven' }] },
          { args: [int(11), int(0), int(10)], kwargs: {} },
        ],
      }),
      '```',
    ].join('\n');
    const { proposals, fallbacks } = await propose(answer);
    expect(proposals).toEqual([
      { args: [int(11), int(0), int(10)], kwargs: {}, init: null },
      { args: [int(-1)], kwargs: { low: int(0), high: int(3) }, init: null },
    ]);
    expect(JSON.stringify(proposals)).not.toContain('999');
    expect(fallbacks).toEqual([]);
  });

  it("asks in the language's own value format and keeps only that format's plain data (JavaScript: no keyword arguments, no instances)", async () => {
    const answer = JSON.stringify({
      inputs: [
        { args: [{ t: 'typedarray', v: { type: 'Uint8Array', b64: 'AQI=' } }, { t: 'number', v: '-0' }], init: null },
        { args: [{ t: 'map', v: [[{ t: 'str', v: 'a' }, { t: 'undefined' }]] }] },
        { args: [{ t: 'instance', v: { class: 'Point', props: [] } }] },
        { args: [{ t: 'number', v: 'seven' }] },
        { args: [{ t: 'str', v: 'x' }], kwargs: { width: { t: 'number', v: '3' } } },
        { args: [int(3)] },
      ],
    });
    const client = scriptedClient([answer]);
    const proposer = createLlmInputProposer(client, { language: createJavaScriptPlugin() });
    const proposals = await proposer.propose({ unit: makeUnit({ id: 'src/bytes:concat', module: 'src/bytes', qualname: 'concat', file: 'src/bytes.js', signature: 'export function concat(a, b)' }), existing: [], seed: 0 });
    expect(proposals).toEqual([
      { args: [{ t: 'typedarray', v: { type: 'Uint8Array', b64: 'AQI=' } }, { t: 'number', v: '-0' }], kwargs: {}, init: null },
      { args: [{ t: 'map', v: [[{ t: 'str', v: 'a' }, { t: 'undefined' }]] }], kwargs: {}, init: null },
    ]);
    const system = client.requests[0]?.messages[0]?.content ?? '';
    expect(system).toContain('JavaScript function');
    expect(system).toContain('typedarray');
    expect(system).not.toContain('kwargs');
    expect(client.requests[0]?.messages[1]?.content).toContain('```js');
  });

  it('caps the number of proposals', async () => {
    const inputs = [1, 2, 3, 4].map((n) => ({ args: [int(n), int(0), int(10)], kwargs: {} }));
    expect((await propose(JSON.stringify({ inputs }), 2)).proposals).toHaveLength(2);
  });

  it('proposes nothing on malformed JSON or an LlmError, without throwing', async () => {
    expect(await propose('{"inputs": [{"args": [ {"t": "int", "v": "1"} ')).toEqual({ proposals: [], fallbacks: ['malformed-answer'] });
    expect(await propose(new LlmError('rate-limited', 'still 429'))).toEqual({ proposals: [], fallbacks: ['llm-error:rate-limited'] });
  });

  it('hands the proposals to record.py as the target\'s `proposed` inputs', async () => {
    let config: any = null;
    const provider = createMemorySandboxProvider({
      execHandler: (_sandbox, _command, options) => {
        config = JSON.parse(options.stdin?.toString() ?? 'null');
        return { exitCode: 0, stdout: JSON.stringify({ targets: [], traces: [] }) };
      },
    });
    const snapshot: RepoSnapshot = { dir: '/nonexistent', origin: 'x', revision: 'working-tree', files: [] };
    const proposal = { args: [int(75)], kwargs: {}, init: null };
    await recordCandidates({
      provider,
      language: python,
      snapshot,
      candidates: [{ unit: makeUnit({ id: 'recfix.core:grade', module: 'recfix.core', qualname: 'grade', file: 'recfix/core.py' }), reasons: [] }, { unit, reasons: [] }],
      seed: 0,
      logger: createSilentLogger(),
      proposals: new Map([['recfix.core:grade', [proposal]]]),
    });
    const byId = new Map(config.targets.map((t: any) => [t.unitId, t]));
    expect((byId.get('recfix.core:grade') as any).proposed).toEqual([proposal]);
    expect(byId.get('mini.core:clamp')).not.toHaveProperty('proposed');
  });

  it('record.py records a proposed input by running the original code, as source llm', () => {
    // grade(75) is 'B' on the original; nothing else (doctests 95 and 30) reaches that branch
    const result = runHarness('record.py', {
      runRepoTests: false,
      targets: [target('grade', 'recfix.core', { proposed: [{ args: [int(75)], kwargs: {}, init: null }] })],
    });
    const grade = result.targets[0];
    const llm = grade.cases.filter((c: any) => c.source === 'llm');
    expect(llm.map((c: any) => [c.args, c.expect])).toContainEqual([[int(75)], { returns: { t: 'str', v: 'B' } }]);
    expect(grade.sources.llm).toMatchObject({ tried: 1, kept: 1 });
  }, 120_000);
});

describe('assertion review in the write stage', () => {
  const many = [-5, 5, 50, 1, 2, 3, 4, 6, 7, 8].map((x, k) => caseOf(k + 1, x, Math.max(0, Math.min(x, 10))));
  const recording: Recording = { unitId: unit.id, cases: many, mutation: { total: 1, killed: 1, score: 1, survivors: [] }, sources: {}, rejected: {} };
  const write = async (answer: string | Error): Promise<{ written: Awaited<ReturnType<typeof writeTask>>; fallbacks: string[] }> => {
    const fallbacks: string[] = [];
    const written = await writeTask({
      suite: 's',
      name: 'clamp',
      unit,
      recording,
      snapshot: { origin: 'x', revision: 'working-tree' },
      libraryName: 'the Python package `mini`',
      writer: python.writer,
      assertionReviewer: createLlmAssertionReviewer(scriptedClient([answer]), { language: python, seed: 0 }),
      reference,
      onLlmFallback: (hook, reason) => fallbacks.push(`${hook}:${reason}`),
    });
    return { written, fallbacks };
  };
  const inputsOf = (cs: readonly RecordedCase[]): string[] => cs.map((c) => (c.args[0] as { v: string }).v);

  it('drops the cases the reviewer flags, never one the prompt shows, and keeps the prompt\'s count right', async () => {
    const baseline = await write('{"drop": []}');
    expect(baseline.written.cases).toHaveLength(10);
    expect(baseline.written.prompt).toContain('Hidden tests check 10 recorded cases');
    const shown = baseline.written.cases.find((c) => baseline.written.prompt.includes(`>>> clamp(${(c.args[0] as { v: string }).v}, 0, 10)`));
    expect(shown).toBeDefined();
    const shownId = shown?.id;
    const byInput = new Map(baseline.written.cases.map((c) => [(c.args[0] as { v: string }).v, c.id]));
    const flagged = [byInput.get('7'), byInput.get('8'), shownId, 'no-such-case'];
    const { written, fallbacks } = await write(JSON.stringify({ drop: flagged.map((id) => ({ id, why: 'unpromised' })) }));
    expect(inputsOf(written.cases)).not.toContain('7');
    expect(inputsOf(written.cases)).not.toContain('8');
    expect(inputsOf(written.cases)).toContain((shown?.args[0] as { v: string }).v);
    expect(written.cases).toHaveLength(8);
    expect(written.reviewDropped).toBe(2);
    expect(written.cases.map((c) => c.id)).toEqual(Array.from({ length: 8 }, (_, k) => `clamp-${k + 1}`));
    expect(written.prompt).toContain('Hidden tests check 8 recorded cases');
    expect(JSON.parse(written.hidden.get('cases.json')?.toString() ?? '{}').cases).toHaveLength(8);
    expect(fallbacks).toEqual([]);
  });

  it('ignores a review that would leave fewer cases than the minimum, and reports it', async () => {
    const all = (await write('{"drop": []}')).written.cases.map((c) => c.id);
    const { written, fallbacks } = await write(JSON.stringify({ drop: all }));
    expect(written.cases).toHaveLength(10);
    expect(written.reviewDropped).toBe(0);
    expect(fallbacks).toEqual(['assertion-reviewer:review-below-minimum']);
  });

  it('keeps every case on a malformed answer or an LlmError', async () => {
    const malformed = await write('I think case 3 is unfair.');
    expect(malformed.written.cases).toHaveLength(10);
    expect(malformed.fallbacks).toEqual(['assertion-reviewer:malformed-answer']);
    const down = await write(new LlmError('server-error', '503 after every retry'));
    expect(down.written.cases).toHaveLength(10);
    expect(down.fallbacks).toEqual(['assertion-reviewer:llm-error:server-error']);
  });
});
