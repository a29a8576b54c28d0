/**
 * `npm run eval [-- --corpus <file> | --corpus-style synthetic|friends] [--out <dir>] [--stages <n>] [--samples <n>] [--months <n>]`:
 * replays a corpus (a generated one, the synthetic corpus by default, or any
 * file in the format of docs/EVAL.md, such as LoCoMo's locomo10.json) through
 * the local stack, asks its questions through the context endpoint, and
 * writes report.md, results.json and plots to the output folder (default
 * eval-output/<corpus>). Ends with one JSON line:
 * {"bench":"eval","strictRecallAt1024":…,"recallAt1024":…,"bm25At1024":…,…}.
 */
import { parseArgs } from 'node:util';
import { CorpusError } from './eval/corpus.js';
import { summaryLine } from './eval/report.js';
import { CORPUS_STYLES, runEvalOnLocalStack, type CorpusStyle } from './eval/run.js';

const usage = `usage: npm run eval [-- --corpus <file> | --corpus-style ${CORPUS_STYLES.join('|')}] [--out <dir>] [--stages <n>] [--samples <n>] [--months <n>]`;
let values: Record<string, string | undefined>;
try {
  values = parseArgs({
    options: { corpus: { type: 'string' }, 'corpus-style': { type: 'string' }, out: { type: 'string' }, stages: { type: 'string' }, samples: { type: 'string' }, months: { type: 'string' } },
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
const corpusName = values.corpus ? values.corpus.split('/').pop()!.replace(/\.json$/i, '') : style;
const log = (line: string) => process.stderr.write(`[eval] ${line}\n`);

try {
  const { result } = await runEvalOnLocalStack({
    ...(values.corpus ? { corpusFile: values.corpus } : { style, generated: { ...(samples ? { samples } : {}), ...(months ? { months } : {}) } }),
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
