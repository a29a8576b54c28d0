/**
 * `npm run eval [-- --corpus <file>] [--out <dir>] [--stages <n>] [--samples <n>] [--months <n>]`:
 * replays a corpus (the synthetic one by default, or any file in the format of
 * docs/EVAL.md, such as LoCoMo's locomo10.json) through the local stack, asks
 * its questions through the context endpoint, and writes report.md,
 * results.json and plots to the output folder (default eval-output/<corpus>).
 * Ends with one JSON line: {"bench":"eval","recallAt1024":…,"bm25At1024":…,…}.
 */
import { parseArgs } from 'node:util';
import { CorpusError } from './eval/corpus.js';
import { summaryLine } from './eval/report.js';
import { runEvalOnLocalStack } from './eval/run.js';

const usage = 'usage: npm run eval [-- --corpus <file>] [--out <dir>] [--stages <n>] [--samples <n>] [--months <n>]';
let values: Record<string, string | undefined>;
try {
  values = parseArgs({
    options: { corpus: { type: 'string' }, out: { type: 'string' }, stages: { type: 'string' }, samples: { type: 'string' }, months: { type: 'string' } },
    allowPositionals: false,
  }).values;
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${usage}\n`);
  process.exit(2);
}
const positive = (name: string): number | undefined => {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`--${name} must be a positive integer, got ${raw}\n${usage}\n`);
    process.exit(2);
  }
  return value;
};
if (values.corpus && (values.samples || values.months)) {
  process.stderr.write(`--samples and --months shape the synthetic corpus; they do not apply to --corpus\n${usage}\n`);
  process.exit(2);
}
const stages = positive('stages');
const samples = positive('samples');
const months = positive('months');
const corpusName = values.corpus ? values.corpus.split('/').pop()!.replace(/\.json$/i, '') : 'synthetic';
const log = (line: string) => process.stderr.write(`[eval] ${line}\n`);

try {
  const { result } = await runEvalOnLocalStack({
    ...(values.corpus ? { corpusFile: values.corpus } : { synthetic: { ...(samples ? { samples } : {}), ...(months ? { months } : {}) } }),
    outDir: values.out ?? `eval-output/${corpusName}`,
    ...(stages ? { stages } : {}),
    command: `npm run eval${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
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
