/**
 * `npm run eval [-- --corpus <file> | --corpus-style synthetic|friends] [--out <dir>] [--stages <n>] [--samples <n>] [--months <n>]`:
 * replays a corpus (a generated one, the synthetic corpus by default, or any
 * file in the format of docs/EVAL.md, such as LoCoMo's locomo10.json) through
 * the local stack, asks its questions through the context endpoint, and
 * writes report.md, results.json and plots to the output folder (default
 * eval-output/<corpus>). Ends with one JSON line:
 * {"bench":"eval","strictRecallAt1024":…,"recallAt1024":…,"bm25At1024":…,…}.
 *
 * `npm run eval -- --loop [--pairs <n>] [--batches <n>] [--out <dir>]`: the
 * note lifecycle loop instead (corrections, feedback, stale hits, conflicts,
 * volume, precision with and without feedback), report in eval-output/loop;
 * ends with {"bench":"eval-loop",…}.
 */
import { parseArgs } from 'node:util';
import { CorpusError } from './eval/corpus.js';
import { summaryLine } from './eval/report.js';
import { CORPUS_STYLES, runEvalOnLocalStack, runLoopOnLocalStack, type CorpusStyle } from './eval/run.js';
import { loopSummaryLine } from './eval/loop-report.js';

const usage = `usage: npm run eval [-- --corpus <file> | --corpus-style ${CORPUS_STYLES.join('|')}] [--out <dir>] [--stages <n>] [--samples <n>] [--months <n>]\n       npm run eval -- --loop [--pairs <n>] [--batches <n>] [--out <dir>]`;
let values: Record<string, string | boolean | undefined>;
try {
  values = parseArgs({
    options: { loop: { type: 'boolean' }, pairs: { type: 'string' }, batches: { type: 'string' }, corpus: { type: 'string' }, 'corpus-style': { type: 'string' }, out: { type: 'string' }, stages: { type: 'string' }, samples: { type: 'string' }, months: { type: 'string' } },
    allowPositionals: false,
  }).values;
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${usage}\n`);
  process.exit(2);
}
const positive = (name: string): number | undefined => {
  const raw = values[name];
  if (raw === undefined || typeof raw === 'boolean') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`--${name} must be a positive integer, got ${raw}\n${usage}\n`);
    process.exit(2);
  }
  return value;
};
const log = (line: string) => process.stderr.write(`[eval] ${line}\n`);
const command = `npm run eval${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
if (values.loop) {
  if (values.corpus || values['corpus-style'] || values.samples || values.months || values.stages) {
    process.stderr.write(`--loop runs its own scenario; --corpus, --corpus-style, --samples, --months and --stages do not apply\n${usage}\n`);
    process.exit(2);
  }
  const pairs = positive('pairs');
  const batches = positive('batches');
  if (batches !== undefined && batches < 4) {
    process.stderr.write(`--batches must be at least 4\n${usage}\n`);
    process.exit(2);
  }
  const { result } = await runLoopOnLocalStack({ outDir: (values.out as string | undefined) ?? 'eval-output/loop', ...(pairs ? { pairs } : {}), ...(batches ? { batches } : {}), command, endpoint: process.env.AWS_ENDPOINT_URL, log });
  process.stdout.write(`${JSON.stringify(loopSummaryLine(result))}\n`);
  process.exit(0);
}
if (values.pairs || values.batches) {
  process.stderr.write(`--pairs and --batches shape the loop scenario; they need --loop\n${usage}\n`);
  process.exit(2);
}
if (values.corpus && (values.samples || values.months)) {
  process.stderr.write(`--samples and --months shape a generated corpus; they do not apply to --corpus\n${usage}\n`);
  process.exit(2);
}
if (values.corpus && values['corpus-style']) {
  process.stderr.write(`--corpus-style picks a generated corpus; it does not apply to --corpus\n${usage}\n`);
  process.exit(2);
}
const style = (values['corpus-style'] ?? 'synthetic') as CorpusStyle;
if (!CORPUS_STYLES.includes(style)) {
  process.stderr.write(`--corpus-style must be one of ${CORPUS_STYLES.join(', ')}, got ${style}\n${usage}\n`);
  process.exit(2);
}
const stages = positive('stages');
const samples = positive('samples');
const months = positive('months');
const corpusFile = values.corpus as string | undefined;
const corpusName = corpusFile ? corpusFile.split('/').pop()!.replace(/\.json$/i, '') : style;

try {
  const { result } = await runEvalOnLocalStack({
    ...(corpusFile ? { corpusFile } : { style, generated: { ...(samples ? { samples } : {}), ...(months ? { months } : {}) } }),
    outDir: (values.out as string | undefined) ?? `eval-output/${corpusName}`,
    ...(stages ? { stages } : {}),
    command,
    endpoint: process.env.AWS_ENDPOINT_URL,
    log,
  });
  process.stdout.write(`${JSON.stringify(summaryLine(result))}\n`);
} catch (error) {
  if (error instanceof CorpusError) {
    process.stderr.write(`invalid corpus: ${error.message}\n`);
    process.exit(2);
  }
  throw error;
}
