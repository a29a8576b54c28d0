/**
 * `npm run bench -- extract`: extraction quality on four labelled corpora
 * (see scripts/corpus/extract/). Needs no emulator: the corpus is fed in
 * batches of 50 records straight to the model port, exactly as the
 * consolidator builds each updater's input, and each patch is applied with the
 * same pure domain code. Reports precision, recall and F1 per store and per
 * corpus. The model is the one `MODEL_PROVIDER` names (local by default), so a
 * real model's figures can sit beside the local rules'.
 */
import { loadConfig } from '../../functions/commons/config.js';
import { createModel } from '../../functions/commons/runtime/model.js';
import { UPDATERS, updaterOutputSchemas, type Evidence, type MemoryItem, type UpdaterName, type UpdaterStore } from '../../functions/domain/memory.js';
import { aliasItems, applyPatch } from '../../functions/domain/patch.js';
import { CURRENT_PROMPTS } from '../../functions/domain/prompts/index.js';
import { itemsForPrompt } from '../../functions/domain/prompt-items.js';
import { renderPrompt } from '../../functions/domain/prompts/render.js';
import { issuesFromZod } from '../../functions/domain/events.js';
import type { ModelPort, UpdaterInput } from '../../functions/ports/model.js';
import type { RawRecord } from '../../functions/ports/pipeline.js';
import { forModel, toPromptRecord } from '../../functions/use-cases/consolidate-batch.js';
import { extractionCorpora, type ExtractionCorpus } from '../corpus/extract/index.js';
import { addScores, f1, precision, recall, scoreMemory, type Score, type StoreScores } from './extract-scoring.js';
import type { BenchReport } from './report.js';
import { round } from './stats.js';

export const EXTRACT_BATCH_SIZE = 50;

/** The benchmark could not run (the configured model is unreachable or answers out of contract). */
export class ExtractBenchmarkError extends Error {
  override readonly name = 'ExtractBenchmarkError';
}
const MAX_EXISTING_IN_PROMPT = 150;
const REDRAW_SEEDS = [101, 202, 303];

/** The model named by the configuration; a configured but unreachable model fails the run with its own error. */
export function benchmarkModel(env: Record<string, string | undefined> = process.env): Promise<ModelPort> {
  // Only the model settings matter here; the stack's resource names are filled so the same validation applies.
  const placeholders = { AGENTS_TABLE_NAME: 'unused', RAW_BUCKET_NAME: 'unused', BATCH_QUEUE_URL: 'http://unused', BATCH_DEAD_LETTER_QUEUE_URL: 'http://unused', MEMORY_TABLE_NAME: 'unused', IDLE_CHECK_QUEUE_URL: 'http://unused', SUMMARIES_TABLE_NAME: 'unused' };
  return createModel(loadConfig({ ...placeholders, ...env }));
}

/** Runs one corpus through the model, batch by batch, and returns every store's items. */
export async function consolidateCorpus(model: ModelPort, corpus: ExtractionCorpus): Promise<MemoryItem[]> {
  const scope = { tenantId: 'bench', agentId: `extract-${corpus.name}` };
  const stores = new Map<UpdaterName, UpdaterStore>(UPDATERS.map((u) => [u, { updater: u, version: 0, lastBatch: 0, items: [], tables: [] }]));
  const raw: RawRecord[] = corpus.records.map((r) => ({ ...r, ...scope, receivedAt: r.timestamp }));
  for (let start = 0, batch = 1; start < raw.length; start += EXTRACT_BATCH_SIZE, batch += 1) {
    const records = raw.slice(start, start + EXTRACT_BATCH_SIZE);
    const evidence = new Map<string, Evidence>(records.map((r) => [r.id, { recordId: r.id, sequence: r.sequence, timestamp: r.timestamp }]));
    const now = records[records.length - 1]!.timestamp;
    for (const updater of UPDATERS) {
      const store = stores.get(updater)!;
      // The items the consolidator would show for this batch (functions/domain/prompt-items.ts).
      const visible = itemsForPrompt(store.items, records.map((r) => r.content), MAX_EXISTING_IN_PROMPT);
      const { aliasOf, idOf } = aliasItems(updater, visible);
      const input: UpdaterInput = { updater, records: records.map(toPromptRecord), existing: visible.map((item) => ({ alias: aliasOf.get(item.id)!, ...forModel(item) })), tables: store.tables };
      let response;
      try {
        response = await model.invoke({ task: updater, prompt: renderPrompt(CURRENT_PROMPTS[updater], input), input, outputSchema: updaterOutputSchemas[updater], maxOutputTokens: 4_096 });
      } catch (error) {
        const reason = error instanceof Error ? `${error.name}: ${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}` : String(error);
        throw new ExtractBenchmarkError(`model ${model.modelId} could not be called (${corpus.name}, batch ${batch}, ${updater}): ${reason}. The benchmark needs the model MODEL_PROVIDER names to be reachable (credentials, OPENAI_BASE_URL, network), or MODEL_PROVIDER=local.`);
      }
      const parsed = updaterOutputSchemas[updater].safeParse(response.output);
      if (!parsed.success) {
        throw new ExtractBenchmarkError(`${corpus.name} batch ${batch} ${updater}: output failed validation: ${issuesFromZod(parsed.error, 'output').slice(0, 3).map((i) => `${i.field}: ${i.rule}`).join('; ')}`);
      }
      const result = applyPatch(store, parsed.data.ops, { updater, batch, now, scope, records: evidence, aliases: idOf });
      stores.set(updater, { ...store, version: store.version + 1, lastBatch: batch, items: [...result.items], tables: [...result.tables] });
    }
  }
  return [...stores.values()].flatMap((s) => s.items);
}

export interface CorpusResult {
  readonly corpus: ExtractionCorpus;
  readonly scores: StoreScores;
}

export async function runExtractionBenchmark(model: ModelPort, corpora = extractionCorpora()): Promise<CorpusResult[]> {
  const results: CorpusResult[] = [];
  for (const corpus of corpora) results.push({ corpus, scores: scoreMemory(corpus.truth, await consolidateCorpus(model, corpus)) });
  return results;
}

const cells = (s: Score) => [round(precision(s), 3), round(recall(s), 3), round(f1(s), 3)];

export async function benchExtract(): Promise<BenchReport> {
  const model = await benchmarkModel();
  const started = Date.now();
  const results = await runExtractionBenchmark(model);
  const wallMs = Date.now() - started;
  const rows: (string | number)[][] = [];
  const totals = { contacts: { tp: 0, fp: 0, fn: 0 }, facts: { tp: 0, fp: 0, fn: 0 }, tasks: { tp: 0, fp: 0, fn: 0 } };
  for (const { corpus, scores } of results) {
    for (const store of ['contacts', 'facts', 'tasks'] as const) {
      rows.push([corpus.name, store, scores[store].tp, scores[store].fp, scores[store].fn, ...cells(scores[store])]);
      totals[store] = addScores(totals[store], scores[store]);
    }
    if (process.env.EXTRACT_VERBOSE) for (const miss of scores.misses) process.stderr.write(`[extract] ${corpus.name}: ${miss}\n`);
  }
  for (const store of ['contacts', 'facts', 'tasks'] as const) rows.push(['all', store, totals[store].tp, totals[store].fp, totals[store].fn, ...cells(totals[store])]);
  const all = addScores(addScores(totals.contacts, totals.facts), totals.tasks);
  const minimum = (store: 'contacts' | 'facts' | 'tasks', of: readonly CorpusResult[] = results) => Math.min(...of.map((r) => f1(r.scores[store])));
  // The same events and templates with other paraphrases drawn: how much the figures depend on the draw the rules were checked on.
  const redrawn: CorpusResult[] = [];
  for (const seed of REDRAW_SEEDS) redrawn.push(...(await runExtractionBenchmark(model, extractionCorpora(seed))));
  return {
    name: 'extract',
    title: `Extraction quality (${model.modelId})`,
    command: 'npm run bench -- extract',
    description: [
      `${results.length} labelled corpora (${results.map((r) => `${r.corpus.name}: ${r.corpus.style}, ${r.corpus.records.length} records`).join('; ')}), generated from events with paraphrased templates (scripts/corpus/extract/).`,
      `Fed to the model port in batches of ${EXTRACT_BATCH_SIZE} records, patches applied with the domain code; no emulator. Matching rules: docs/design/extraction.md.`,
      `Goal: F1 >= 0.85 for contacts and tasks, >= 0.75 for facts, on every corpus.`,
    ].join('\n'),
    table: { header: ['corpus', 'store', 'TP', 'FP', 'FN', 'precision', 'recall', 'F1'], rows },
    notes: [
      `model ${model.modelId}; wall time ${wallMs} ms for ${results.reduce((n, r) => n + r.corpus.records.length, 0)} records`,
      `worst corpus F1: contacts ${round(minimum('contacts'), 3)}, facts ${round(minimum('facts'), 3)}, tasks ${round(minimum('tasks'), 3)}`,
      `re-drawn paraphrases (seeds ${REDRAW_SEEDS.join(', ')}), worst corpus F1: contacts ${round(minimum('contacts', redrawn), 3)}, facts ${round(minimum('facts', redrawn), 3)}, tasks ${round(minimum('tasks', redrawn), 3)}`,
      'set EXTRACT_VERBOSE=1 to list every miss',
    ],
    json: { f1: round(f1(all), 3), contactsF1: round(f1(totals.contacts), 3), factsF1: round(f1(totals.facts), 3), tasksF1: round(f1(totals.tasks), 3), model: model.modelId },
  };
}
