/**
 * Developer tool for the read path: replay a corpus once through the API,
 * keep what consolidation made (each agent's snapshot and index segments),
 * then try rankings and packings on it in-process in seconds, beside the
 * raw-turn baselines, with the same measures as the evaluation.
 *
 *   npx tsx scripts/dev/recall-lab.ts capture --corpus corpus.json --out .lab/friends
 *   npx tsx scripts/dev/recall-lab.ts score --dir .lab/friends [--budgets 512,1024,2048] [--variants all,records] [--misses]
 *       [--compare [--all-misses]] [--tuning '{"denseWeight":1}'] [--packing '{"sessionDecay":1}'] [--skip-baselines]
 *       [--variant-misses]  (questions `all` recalls less of than another variant at LAB_MISS_BUDGET, both blocks printed)
 *       [--answer-misses]   (questions whose evidence is printed at 1,024 but whose answer is not, with the lines citing it)
 *       [--marked]          (each distinct line of \`all\`'s blocks at LAB_MISS_BUDGET that carries a "(later: …)" marker)
 *   LAB_MISS_BUDGET=512 … --misses / --compare / --variant-misses   read another budget than 1,024
 *   LAB_SHOW='<words of a question>'   print that question's block and its 25 best-ranked units
 *
 * Variants restrict the units recall may return, as `views=` does:
 * `all`, `records` (the raw turns only), `consolidated` (items and summaries,
 * no records), `no-summaries`, `time` / `count` (records, items and one ladder).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { countTokens } from '../../functions/commons/tokens.js';
import { LocalEmbeddings } from '../../functions/adapters/embeddings/local.js';
import { DynamoDbSnapshotStore } from '../../functions/adapters/dynamodb/snapshot-store.js';
import { decodeSegment, type SegmentUnit } from '../../functions/domain/index-segment.js';
import { loadSegment, UnitIndex, type RankingTuning } from '../../functions/domain/retrieval.js';
import { renderMemoryBlock, renderRecall, type PackingTuning } from '../../functions/domain/context.js';
import { unpackSnapshot, type Snapshot } from '../../functions/domain/snapshot.js';
import { Bm25Baseline, embeddingText, HybridBaseline } from '../eval/baselines.js';
import { parseCorpus, type CorpusSample } from '../eval/corpus.js';
import { answerContained, answerDateForms, groundedRecall, printedIds, strictRecall } from '../eval/metrics.js';
import { postSamples, startReplayStack, waitConsolidated } from './replay.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { corpus: { type: 'string' }, out: { type: 'string' }, dir: { type: 'string' }, budgets: { type: 'string' }, variants: { type: 'string' }, misses: { type: 'boolean' }, compare: { type: 'boolean' }, 'all-misses': { type: 'boolean' }, tuning: { type: 'string' }, packing: { type: 'string' }, 'skip-baselines': { type: 'boolean' }, 'answer-misses': { type: 'boolean' }, 'variant-misses': { type: 'boolean' }, marked: { type: 'boolean' } },
});
const log = (line: string) => process.stderr.write(`[lab] ${line}\n`);

async function capture(corpusFile: string, out: string) {
  const raw = JSON.parse(readFileSync(corpusFile, 'utf8'));
  const samples = parseCorpus(raw);
  const { stack, call } = await startReplayStack('lab');
  try {
    const started = Date.now();
    const agents = samples.map((s, i) => `lab-${i}-${s.id}`.slice(0, 64));
    await postSamples(call, samples, agents);
    for (const agent of agents) {
      await waitConsolidated(call, agent);
      await stack.eventSources.waitForIdle(1_800_000);
      await call('POST', `/v1/agents/${agent}/sweep`);
    }
    await stack.eventSources.waitForIdle(1_800_000);
    log(`replayed ${samples.length} sample(s) and settled in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    const snapshots = new DynamoDbSnapshotStore(DynamoDBDocumentClient.from(stack.clients.dynamodb), stack.resourceRef('AWS::DynamoDB::Table', 'MemoryTable'));
    const bucket = stack.resourceRef('AWS::S3::Bucket', 'RawLog');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'corpus.json'), JSON.stringify(raw));
    for (const [i, agent] of agents.entries()) {
      const stored = await snapshots.read({ tenantId: 'default', agentId: agent });
      const snapshot = stored ? unpackSnapshot(stored.packed) : undefined;
      if (!snapshot?.index) throw new Error(`${agent}: no snapshot with an index`);
      const dir = join(out, `sample-${i}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'snapshot.json'), JSON.stringify(snapshot));
      const keys = [...snapshot.index.segments.map((s) => s.key), ...(snapshot.index.items ? [snapshot.index.items.key] : [])];
      for (const [n, key] of keys.entries()) {
        const object = await stack.clients.s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        writeFileSync(join(dir, `${String(n).padStart(3, '0')}.seg`), await object.Body!.transformToByteArray());
      }
      log(`${agent}: snapshot and ${keys.length} segment(s) kept in ${dir}`);
    }
  } finally {
    await stack.stop();
  }
}

type Variant = 'all' | 'records' | 'consolidated' | 'no-summaries' | 'time' | 'count' | 'base-summaries' | 'no-items';
const VARIANTS: Record<Variant, ((unit: SegmentUnit) => boolean) | undefined> = {
  all: undefined,
  records: (unit) => unit.kind === 'record',
  consolidated: (unit) => unit.kind !== 'record',
  'no-summaries': (unit) => unit.kind !== 'summary',
  time: (unit) => unit.kind !== 'summary' || unit.ladder === 'time',
  count: (unit) => unit.kind !== 'summary' || unit.ladder === 'count',
  'base-summaries': (unit) => unit.kind !== 'summary' || unit.level === 0,
  'no-items': (unit) => unit.kind === 'record' || unit.kind === 'summary',
};

interface Tally {
  recall: number[];
  grounded: number[];
  literal: number[];
  dates: number[];
  tokensPerId: number[];
  byCategory: Map<string, number[]>;
}

const tally = (): Tally => ({ recall: [], grounded: [], literal: [], dates: [], tokensPerId: [], byCategory: new Map() });

/** Answer contained, dates compared in one form (a record says 2023-05-07 where the answer says 7 May 2023). */
function containedWithDates(answer: string, text: string, reference: string): boolean {
  if (answerContained(answer, text)) return true;
  const forms = answerDateForms(answer, reference);
  return forms !== undefined && forms.some((form) => text.includes(form));
}

function record(t: Tally, question: CorpusSample['questions'][number], markdown: string, reference: string, allIds: readonly string[], turnText: (id: string) => string | undefined) {
  if (question.evidence.length > 0) {
    const recall = strictRecall(question.evidence, markdown);
    t.recall.push(recall);
    t.grounded.push(groundedRecall(question.evidence, markdown, turnText));
    t.byCategory.set(question.category, [...(t.byCategory.get(question.category) ?? []), recall]);
  }
  if (question.answer !== undefined) {
    t.literal.push(answerContained(question.answer, markdown) ? 1 : 0);
    t.dates.push(containedWithDates(question.answer, markdown, reference) ? 1 : 0);
  }
  const cited = printedIds(markdown, allIds).size;
  if (cited > 0) t.tokensPerId.push(countTokens(markdown) / cited);
}

const tuning = values.tuning ? (JSON.parse(values.tuning) as Partial<RankingTuning>) : {};
const packing = values.packing ? (JSON.parse(values.packing) as Partial<PackingTuning>) : {};

async function score(dir: string) {
  const budgets = (values.budgets ?? '512,1024,2048').split(',').map(Number);
  const variants = (values.variants ?? 'all,records').split(',') as Variant[];
  const samples = parseCorpus(JSON.parse(readFileSync(join(dir, 'corpus.json'), 'utf8')));
  const embeddings = new LocalEmbeddings();
  const results = new Map<string, Tally>();
  const markedSeen = new Set<string>();
  const at = (name: string) => {
    let t = results.get(name);
    if (!t) results.set(name, (t = tally()));
    return t;
  };
  for (const [i, sample] of samples.entries()) {
    const sampleDir = join(dir, `sample-${i}`);
    const snapshot = JSON.parse(readFileSync(join(sampleDir, 'snapshot.json'), 'utf8')) as Snapshot;
    const segments = readdirSync(sampleDir).filter((f) => f.endsWith('.seg')).sort().map((f) => loadSegment(f, decodeSegment(readFileSync(join(sampleDir, f)))));
    const index = new UnitIndex(segments, new Set(snapshot.index?.dropped ?? []), snapshot.index?.modelId);
    const allIds = sample.turns.map((t) => t.id);
    const texts = new Map(sample.turns.map((t) => [t.id, t.text]));
    const turnText = (id: string) => texts.get(id);
    const turnVectors = await embeddings.embed(sample.turns.map(embeddingText));
    const hybrid = new HybridBaseline(sample.turns, new Map(sample.turns.map((t, n) => [t.id, turnVectors[n]!])));
    const bm25 = new Bm25Baseline(sample.turns);
    const reference = sample.turns.at(-1)!.at;
    for (const question of sample.questions) {
      const [queryVector] = await embeddings.embed([question.question]);
      const blocks = new Map<string, string>();
      for (const variant of variants) {
        const allow = VARIANTS[variant];
        for (const budget of budgets) {
          // As the read route does: the ranking knows the block's budget.
          const { ranked, understanding } = index.search({ query: question.question, queryVector: queryVector!, now: reference, ...(allow ? { allow } : {}), budgetTokens: budget, tuning });
          const block = renderMemoryBlock((inner) => renderRecall(snapshot, ranked, { maxTokens: inner, countTokens, terms: understanding.terms, packing }), { maxTokens: budget, nonce: '123456789012345678', countTokens });
          record(at(`${variant}@${budget}`), question, block.markdown, reference, allIds, turnText);
          blocks.set(`${variant}@${budget}`, block.markdown);
          if (values.misses && variant === 'all' && budget === Number(process.env.LAB_MISS_BUDGET ?? 1024) && question.evidence.length > 0 && strictRecall(question.evidence, block.markdown) < 1) {
            process.stderr.write(`\nMISS [${question.category}] ${question.question} → ${question.evidence.join(', ')} (${question.answer ?? ''})\n`);
          }
          if (values['answer-misses'] && variant === 'all' && budget === 1024 && question.answer !== undefined && strictRecall(question.evidence, block.markdown) === 1 && !containedWithDates(question.answer, block.markdown, reference)) {
            process.stderr.write(`\nANSWER [${question.category}] ${question.question} (${question.answer})\n`);
            for (const line of block.markdown.split('\n')) if (question.evidence.some((id) => printedIds(line, [id]).size > 0)) process.stderr.write(`   | ${line.slice(0, 300)}\n`);
          }
        }
      }
      if (process.env.LAB_SHOW && question.question.includes(process.env.LAB_SHOW)) {
        // LAB_SHOW=<words of a question>: its block at the miss budget and the units ranked first, to see what took the room.
        const budget = Number(process.env.LAB_MISS_BUDGET ?? 1024);
        const { ranked } = index.search({ query: question.question, queryVector: queryVector!, now: reference, budgetTokens: budget, tuning });
        process.stderr.write(`\nSHOW ${question.question} → ${question.evidence.join(', ')}\n${blocks.get(`all@${budget}`) ?? ''}\n--- ranked\n`);
        for (const [n, r] of ranked.slice(0, 25).entries()) process.stderr.write(`${n} ${r.score.toFixed(4)} ${r.unit.kind} ${r.unit.id} ${r.unit.text.slice(0, 100).replace(/\n/g, ' ')}\n`);
      }
      if (values.marked) {
        const block = blocks.get(`all@${Number(process.env.LAB_MISS_BUDGET ?? 1024)}`) ?? '';
        for (const line of block.split('\n')) if (line.includes('(later: ') && !markedSeen.has(line)) { markedSeen.add(line); process.stderr.write(`MARKED ${line.slice(0, 400)}\n`); }
      }
      if (values['variant-misses'] && question.evidence.length > 0) {
        // Where `all` recalls less than another variant at the miss budget: both blocks, to see what took the room.
        const budget = Number(process.env.LAB_MISS_BUDGET ?? 1024);
        const ours = blocks.get(`all@${budget}`);
        for (const variant of variants.filter((v) => v !== 'all')) {
          const theirs = blocks.get(`${variant}@${budget}`);
          if (ours === undefined || theirs === undefined || strictRecall(question.evidence, ours) >= strictRecall(question.evidence, theirs)) continue;
          process.stderr.write(`\nBEHIND ${variant} [${question.category}] ${question.question} → ${question.evidence.join(', ')}\n--- all\n${ours}\n--- ${variant}\n${theirs}\n`);
        }
      }
      if (values['skip-baselines']) continue;
      const hybridContexts = hybrid.contexts(question.question, queryVector!, budgets);
      if (values.compare && question.evidence.length > 0) {
        const compareAt = Number(process.env.LAB_MISS_BUDGET ?? 1024);
        const { ranked, understanding } = index.search({ query: question.question, queryVector: queryVector!, now: reference, budgetTokens: compareAt, tuning });
        const ours = renderMemoryBlock((inner) => renderRecall(snapshot, ranked, { maxTokens: inner, countTokens, terms: understanding.terms, packing }), { maxTokens: compareAt, nonce: '123456789012345678', countTokens }).markdown;
        const theirs = hybridContexts.get(compareAt)?.markdown ?? hybrid.context(question.question, queryVector!, compareAt).markdown;
        const [a, b] = [strictRecall(question.evidence, ours), strictRecall(question.evidence, theirs)];
        if (a !== b || (values['all-misses'] && a < 1)) {
          const turns = new Map(sample.turns.map((t) => [t.id, t]));
          process.stderr.write(`\n${a < b ? 'LOST' : a > b ? 'WON ' : 'MISS'} [${question.category}] ${question.question} (${question.answer ?? ''}) ours ${a.toFixed(2)} hybrid ${b.toFixed(2)}\n`);
          for (const id of question.evidence) {
            const rank = ranked.findIndex((r) => r.unit.id === id);
            process.stderr.write(`   ${id} ours:${printedIds(ours, [id]).size ? 'Y' : 'n'} hybrid:${printedIds(theirs, [id]).size ? 'Y' : 'n'} rank ${rank} ${turns.get(id)?.speaker}: ${turns.get(id)?.text.slice(0, 110)}\n`);
          }
        }
      }
      for (const budget of budgets) {
        record(at(`hybrid@${budget}`), question, hybridContexts.get(budget)!.markdown, reference, allIds, turnText);
        record(at(`bm25@${budget}`), question, bm25.context(question.question, budget).markdown, reference, allIds, turnText);
      }
    }
  }
  const mean = (xs: number[]) => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 1000) / 1000 : null);
  const rows = [...results].map(([name, t]) => ({
    name,
    recall: mean(t.recall),
    grounded: mean(t.grounded),
    literal: mean(t.literal),
    dates: mean(t.dates),
    tokensPerId: mean(t.tokensPerId),
    byCategory: Object.fromEntries([...t.byCategory].map(([c, xs]) => [c, mean(xs)])),
  }));
  for (const row of rows.sort((a, b) => a.name.localeCompare(b.name))) process.stdout.write(`${row.name.padEnd(20)} recall ${row.recall}  grounded ${row.grounded}  answer ${row.literal} / dates ${row.dates}  tok/id ${row.tokensPerId}  ${JSON.stringify(row.byCategory)}\n`);
}

const command = positionals[0];
if (command === 'capture' && values.corpus && values.out) await capture(values.corpus, values.out);
else if (command === 'score' && values.dir) await score(values.dir);
else {
  process.stderr.write('usage: recall-lab.ts capture --corpus <file> --out <dir> | score --dir <dir> [--budgets 512,1024] [--variants all,records] [--misses]\n');
  process.exit(2);
}
