/**
 * The evaluation run: replays each sample through the HTTP API with its own
 * timestamps, in stages (for the learning curve), waits until consolidation
 * and both ladders have caught up, then asks every question through
 * `GET /context` at each budget and scores what came back against the
 * question's evidence and answer, beside the raw-turn baselines at the same
 * budgets.
 *
 * The seams: replay.ts posts and waits, scoring.ts asks and scores,
 * store.ts reads and measures what was stored; this module runs them in
 * order and assembles the result.
 */
import { randomBytes } from 'node:crypto';
import { mapWithConcurrency } from '../../functions/commons/concurrency.js';
import type { LocalStack } from '../../local/local-stack.js';
import { createApiKey } from '../../functions/use-cases/api-keys.js';
import { ApiClient } from './api-client.js';
import { embeddingText, fullHistoryTokens } from './baselines.js';
import type { CorpusSample } from './corpus.js';
import { embedTexts } from './embeddings.js';
import { aggregateByCategory, mean } from './metrics.js';
import { replay, stageCount } from './replay.js';
import { emptyScoreSheet, scoreSample, scoreStage, type SampleVectors, type StageScores } from './scoring.js';
import { readMemory, sumMemorySizes, type MemorySize } from './store.js';
import { BUDGETS, METHODS, type EvalOptions, type EvalResult, type LearningPoint } from './types.js';

export { currentStateText, presentsAsCurrent } from './scoring.js';
export * from './types.js';

export async function runEvaluation(stack: Pick<LocalStack, 'url' | 'eventSources' | 'keys'>, options: EvalOptions): Promise<EvalResult> {
  const log = options.log ?? (() => {});
  // The eval's own key: tenant default, the scopes its calls need (sweep is admin).
  const api = new ApiClient(stack.url, (await createApiKey(stack.keys, { tenantId: 'default', scopes: ['read', 'write', 'admin'], description: 'eval' })).key);
  const run = randomBytes(3).toString('hex');
  // The sample's position keeps agent ids unique when sample ids collide or are cut to length.
  const agents = options.samples.map((sample, i) => ({ sample, agentId: `eval-${run}-${i + 1}-${sample.id}`.slice(0, 64) }));
  const stages = stageCount(options.samples, options.stages);
  const totalTurns = options.samples.reduce((sum, s) => sum + s.turns.length, 0);
  const totalQuestions = options.samples.reduce((sum, s) => sum + s.questions.length, 0);
  log(`${options.corpusName}: ${options.samples.length} sample(s), ${totalTurns} turns, ${totalQuestions} questions, ${stages} stage(s)`);

  // Embedded before the replay, while the stack is idle: the encoder and consolidation share the same cores.
  const embeddingStart = Date.now();
  const vectors = new Map<string, SampleVectors>();
  for (const { sample, agentId } of agents) vectors.set(agentId, await embedSample(sample));
  const embeddingSeconds = (Date.now() - embeddingStart) / 1000;
  log(`embedded ${totalTurns} turns and ${totalQuestions} questions for the hybrid baseline (${embeddingSeconds.toFixed(1)} s)`);

  const learningCurve: LearningPoint[] = [];
  const timing = await replay(api, stack, agents, {
    stages,
    settleTimeoutMs: options.settleTimeoutMs ?? 1_800_000,
    log,
    afterStage: async ({ stage, ingestedTurns, posted }) => {
      // A point of the learning curve: questions whose evidence has all been replayed, at 1,024 tokens.
      const scored: StageScores = { systemStrict: [], bm25Strict: [], hybridStrict: [], system: [], bm25: [] };
      await mapWithConcurrency(agents, 1, ({ sample, agentId }) => scoreStage(api, agentId, sample, posted.get(agentId)!, vectors.get(agentId)!, () => readMemory(api, agentId), scored));
      learningCurve.push({
        stage,
        messages: ingestedTurns,
        answerable: scored.system.length,
        systemStrictRecall: mean(scored.systemStrict),
        bm25StrictRecall: mean(scored.bm25Strict),
        hybridStrictRecall: mean(scored.hybridStrict),
        systemRecall: mean(scored.system),
        bm25Recall: mean(scored.bm25),
      });
    },
  });

  // The final evaluation, on the whole corpus.
  const questionStart = Date.now();
  const sheet = emptyScoreSheet();
  const sizes: MemorySize[] = [];
  let asked = 0;
  for (const { sample, agentId } of agents) {
    const memory = await readMemory(api, agentId);
    sizes.push(memory.size);
    await scoreSample(api, agentId, sample, memory, vectors.get(agentId)!, sheet, () => {
      asked += 1;
      if (asked % 100 === 0 || asked === totalQuestions) log(`asked ${asked}/${totalQuestions} questions`);
    });
  }
  const questionSeconds = (Date.now() - questionStart) / 1000;
  const stored = sumMemorySizes(sizes);

  const results = Object.fromEntries(
    METHODS.map((method) => [method, Object.fromEntries(BUDGETS.map((budget) => [String(budget), aggregateByCategory(sheet.raw[method][budget]!)]))]),
  ) as EvalResult['results'];
  return {
    corpus: options.corpusName,
    samples: options.samples.length,
    messages: totalTurns,
    questions: totalQuestions,
    budgets: [...BUDGETS],
    results,
    itemOnlyRecall: Object.fromEntries(BUDGETS.map((b) => [String(b), mean(sheet.itemOnly[b]!.filter((v) => !Number.isNaN(v)))])),
    ablations: Object.fromEntries(Object.entries(sheet.ablated).map(([name, byBudget]) => [name, Object.fromEntries(Object.entries(byBudget).map(([budget, scores]) => [budget, aggregateByCategory(scores)]))])),
    corrections: sheet.corrections.sort((a, b) => a.sample.localeCompare(b.sample) || a.question.localeCompare(b.question)),
    learningCurve,
    store: { ...stored, rawBytes: timing.rawBytes, historyTokens: options.samples.reduce((sum, s) => sum + fullHistoryTokens(s.turns), 0) },
    timing: {
      ingestSeconds: timing.ingestMs / 1000,
      consolidationSeconds: timing.consolidationMs / 1000,
      // ms per message is s per 1,000 messages.
      secondsPer1000Messages: timing.consolidationMs / Math.max(1, totalTurns),
      ladderSeconds: timing.ladderMs / 1000,
      questionSeconds,
      embeddingSeconds,
    },
  };
}

async function embedSample(sample: CorpusSample): Promise<SampleVectors> {
  const questions = [...new Set(sample.questions.map((q) => q.question))];
  const embedded = await embedTexts([...sample.turns.map(embeddingText), ...questions]);
  return {
    turns: new Map(sample.turns.map((turn, i) => [turn.id, embedded[i]!])),
    questions: new Map(questions.map((question, i) => [question, embedded[sample.turns.length + i]!])),
  };
}
