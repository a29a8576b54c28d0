/**
 * `npm run bench -- eval`: the memory-quality evaluation on both generated
 * corpora (the synthetic user-and-assistant corpus and the friends chat) and
 * the three independently written ones (scripts/corpus/independent/), one
 * after the other on the same stack, each with its baselines in the same
 * run. The full reports and plots go to docs/eval/<corpus>/, the summary to
 * docs/BENCHMARKS.md.
 *
 * Sizes keep the whole benchmark near three minutes on two shared cores:
 * consolidation with the local model costs about 35 s per 1,000 messages
 * and embedding the turns for the hybrid baseline about 15 ms per turn.
 */
import { fileURLToPath } from 'node:url';
import type { LocalStack } from '../../local/local-stack.js';
import { evalBenchReport } from '../eval/report.js';
import { runEval, type CorpusStyle } from '../eval/run.js';
import type { BenchReport } from './report.js';

const docsDir = fileURLToPath(new URL('../../docs/', import.meta.url));
// Read at import, before a stack starts and points AWS_ENDPOINT_URL at its own emulator.
const externalEndpoint = process.env.AWS_ENDPOINT_URL;

/** The generated corpora and their sizes (conversations, months each). */
export const BENCH_CORPORA: readonly { style: CorpusStyle; samples: number; months: number }[] = [
  { style: 'synthetic', samples: 2, months: 3 },
  { style: 'friends', samples: 2, months: 4 },
];

/** The independently written corpora (one conversation each). */
export const INDEPENDENT_CORPORA = ['coworkers', 'coach', 'family'] as const;

export async function benchEval(stack: LocalStack): Promise<BenchReport> {
  const runs = [];
  const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
  for (const corpus of BENCH_CORPORA) {
    runs.push(
      await runEval(stack, {
        style: corpus.style,
        generated: { samples: corpus.samples, months: corpus.months },
        outDir: fileURLToPath(new URL(`../../docs/eval/${corpus.style}/`, import.meta.url)),
        command: `npm run bench -- eval (${corpus.style}: ${corpus.samples} conversations of ${corpus.months} months)`,
        saveCorpus: false,
        endpoint: externalEndpoint,
        log,
      }),
    );
  }
  for (const name of INDEPENDENT_CORPORA) {
    runs.push(
      await runEval(stack, {
        corpusFile: fileURLToPath(new URL(`../corpus/independent/${name}.json`, import.meta.url)),
        outDir: fileURLToPath(new URL(`../../docs/eval/${name}/`, import.meta.url)),
        command: `npm run bench -- eval (${name}: scripts/corpus/independent/${name}.json)`,
        endpoint: externalEndpoint,
        log,
      }),
    );
  }
  return evalBenchReport(runs, docsDir);
}
