/**
 * `npm run bench -- consolidate`: consolidation with the local model on the
 * emulator. Per batch: wall time, model calls and tokens; throughput across
 * 20 agents; and, in the same run, an online baseline that makes one
 * extraction call per message pair, as per-message extractors do, priced
 * with the same prompts and tokenizer.
 */
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../functions/commons/config.js';
import { createServiceRuntime } from '../../functions/commons/runtime/service.js';
import { mapWithConcurrency } from '../../functions/commons/concurrency.js';
import { DEFAULT_BUDGET } from '../../functions/use-cases/model-budget.js';
import { LocalModel } from '../../functions/adapters/models/local/local-model.js';
import { countTokens } from '../../functions/adapters/models/local/text.js';
import type { PromptRecord, UpdaterInput } from '../../functions/ports/model.js';
import { CURRENT_PROMPTS } from '../../functions/domain/prompts/index.js';
import { renderPrompt } from '../../functions/domain/prompts/render.js';
import { consolidateBatch, type BatchOutcome } from '../../functions/use-cases/consolidate-batch.js';
import { ingestEvents } from '../../functions/use-cases/ingest-events.js';
import { parseIngestRequest } from '../../functions/domain/events.js';
import type { BatchJob } from '../../functions/ports/pipeline.js';
import { UPDATERS } from '../../functions/domain/memory.js';
import type { LocalStack } from '../../local/local-stack.js';
import { scriptedConversation } from '../corpus/scripted-conversation.js';
import type { BenchReport } from './report.js';
import { median, quantile, round } from './stats.js';

const AGENTS = 20;
const MESSAGES_PER_AGENT = 300;
/** Agents consolidated at once (Lambda would run more; the emulator serialises requests anyway). */
const CONCURRENCY = 4;
/** Existing memories a per-message extractor puts in each prompt (Mem0 retrieves related memories the same way). */
const BASELINE_CONTEXT_ITEMS = 10;

export async function benchConsolidate(stack: LocalStack): Promise<BenchReport> {
  await stack.eventSources.stop(); // batches are driven here, so they can be timed one by one
  const config = loadConfig();
  const runtime = await createServiceRuntime(config);
  const model = new LocalModel();
  const deps = { ledger: runtime.ledger, rawLog: runtime.rawLog, memory: runtime.memory, model, budget: DEFAULT_BUDGET };
  const conversation = scriptedConversation(MESSAGES_PER_AGENT);
  const agents = Array.from({ length: AGENTS }, (_, i) => ({ tenantId: config.tenantId, agentId: `bench-${i}-${randomUUID().slice(0, 6)}` }));

  for (const agent of agents) {
    for (let start = 0; start < conversation.length; start += 100) {
      const events = parseIngestRequest({ events: conversation.slice(start, start + 100) });
      await ingestEvents({ ledger: runtime.ledger, rawLog: runtime.rawLog, queue: runtime.queue, batchSize: config.batchSize, rawWriteConcurrency: 16 }, agent, events);
    }
  }
  const jobsOf = async (agent: (typeof agents)[number]): Promise<BatchJob[]> => {
    const status = await runtime.ledger.readStatus(agent);
    const jobs: BatchJob[] = [];
    for (let index = 1; index <= status!.batchesClosed; index += 1) {
      const batch = await runtime.ledger.readBatch(agent, index);
      jobs.push({ ...agent, index, fromSequence: batch!.fromSequence, toSequence: batch!.toSequence });
    }
    return jobs;
  };

  const outcomes: BatchOutcome[] = [];
  const started = Date.now();
  await mapWithConcurrency(agents, CONCURRENCY, async (agent) => {
    for (const job of await jobsOf(agent)) outcomes.push(...(await consolidateBatch(deps, job)));
  });
  const elapsedSeconds = (Date.now() - started) / 1000;

  const messages = AGENTS * MESSAGES_PER_AGENT;
  const ours = {
    calls: outcomes.reduce((sum, o) => sum + o.modelCalls, 0),
    inputTokens: outcomes.reduce((sum, o) => sum + o.inputTokens, 0),
    outputTokens: outcomes.reduce((sum, o) => sum + o.outputTokens, 0),
  };

  // Online baseline: one extraction call per message pair, over the same conversation.
  const finalContacts = await runtime.memory.load(agents[0]!, 'contacts');
  const context = finalContacts.items.slice(0, BASELINE_CONTEXT_ITEMS).map((item, i) => {
    const { id: _id, evidence: _evidence, history: _history, ...fields } = item;
    return { alias: `C${i + 1}`, ...fields };
  });
  const baseline = { calls: 0, inputTokens: 0, outputTokens: 0 };
  const records: PromptRecord[] = conversation.map((event, i) => ({ ...event, sequence: i + 1 }));
  for (let i = 0; i < records.length; i += 2) {
    const pair = records.slice(i, i + 2);
    // One call that extracts everything from the pair: priced as the three prompts' instructions
    // plus the pair and the retrieved memories once, and the three outputs.
    const inputs = UPDATERS.map((updater): UpdaterInput => ({ updater, records: pair, existing: updater === 'contacts' ? context : [], tables: [] }));
    const prompts = inputs.map((input) => renderPrompt(CURRENT_PROMPTS[input.updater], input));
    const responses = await Promise.all(inputs.map((input, k) => model.invoke({ task: input.updater, prompt: prompts[k]!, input, outputSchema: undefined as never, maxOutputTokens: 0 })));
    baseline.calls += 1;
    baseline.inputTokens += countTokens([prompts[0]!.system, ...prompts.map((p) => p.user)].join('\n'));
    baseline.outputTokens += responses.reduce((sum, r) => sum + r.usage.outputTokens, 0);
  }
  const baselinePer1000 = { calls: (baseline.calls / MESSAGES_PER_AGENT) * 1000, tokens: ((baseline.inputTokens + baseline.outputTokens) / MESSAGES_PER_AGENT) * 1000 };
  const oursPer1000 = { calls: (ours.calls / messages) * 1000, tokens: ((ours.inputTokens + ours.outputTokens) / messages) * 1000 };

  const wall = outcomes.map((o) => o.wallMs);
  const inputPerBatch = outcomes.map((o) => o.inputTokens);
  const outputPerBatch = outcomes.map((o) => o.outputTokens);
  const callsRatio = baselinePer1000.calls / oursPer1000.calls;
  const tokensRatio = baselinePer1000.tokens / oursPer1000.tokens;

  return {
    name: 'consolidate',
    title: 'Consolidation: batches of 50 with the local model, against one extraction call per message pair',
    command: 'npm run bench -- consolidate',
    description: `${AGENTS} agents, each with the scripted ${MESSAGES_PER_AGENT}-message conversation (${outcomes.length} batches of 50), ingested and then consolidated through the real consolidation use case on the emulator (raw log in S3, stores in DynamoDB), ${CONCURRENCY} agents at a time. Tokens are counted with the o200k tokenizer on the prompts each call renders and the JSON it returns. The online baseline, computed in the same run over the same conversation, makes one extraction call per message pair, with the same instructions, the pair, and ${BASELINE_CONTEXT_ITEMS} retrieved memories in its prompt.`,
    table: {
      header: ['measure', 'batched (ours)', 'online baseline', 'baseline / ours'],
      rows: [
        ['model calls per 1,000 messages', round(oursPer1000.calls, 1), round(baselinePer1000.calls, 1), round(callsRatio, 2)],
        ['model tokens per 1,000 messages', Math.round(oursPer1000.tokens), Math.round(baselinePer1000.tokens), round(tokensRatio, 2)],
        ['wall time per batch, p50 / p90 ms', `${round(median(wall), 1)} / ${round(quantile(wall, 0.9), 1)}`, '', ''],
        ['model calls per batch', round(ours.calls / outcomes.length, 2), '', ''],
        ['input / output tokens per batch, p50', `${Math.round(median(inputPerBatch))} / ${Math.round(median(outputPerBatch))}`, '', ''],
        [`throughput, ${AGENTS} agents`, `${round(outcomes.length / elapsedSeconds, 2)} batches/s`, '', ''],
      ],
    },
    notes: [
      'Wall time is dominated by the emulator (every request is serialised through moto) and by the local model\'s NLP; an LLM adapter adds its own latency per call, three calls per batch, run concurrently.',
      'The baseline is generous to per-message extraction: one call per pair (Mem0 makes an extraction and an update call per add), and a shared prompt for all three stores.',
    ],
    json: {
      callsRatio: round(callsRatio, 3),
      tokensRatio: round(tokensRatio, 3),
      callsPer1000: round(oursPer1000.calls, 2),
      tokensPer1000: Math.round(oursPer1000.tokens),
      baselineCallsPer1000: round(baselinePer1000.calls, 2),
      baselineTokensPer1000: Math.round(baselinePer1000.tokens),
      batches: outcomes.length,
      p50BatchMs: round(median(wall), 1),
      p90BatchMs: round(quantile(wall, 0.9), 1),
      batchesPerSecond: round(outcomes.length / elapsedSeconds, 3),
      p50InputTokensPerBatch: Math.round(median(inputPerBatch)),
      p50OutputTokensPerBatch: Math.round(median(outputPerBatch)),
    },
  };
}
