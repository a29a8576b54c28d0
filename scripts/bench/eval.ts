/**
 * `npm run bench -- eval`: the memory-quality evaluation on the synthetic
 * corpus, with its baselines in the same run. The full report and plots go
 * to docs/eval/synthetic/, the summary to docs/BENCHMARKS.md.
 */
import { fileURLToPath } from 'node:url';
import type { LocalStack } from '../../local/local-stack.js';
import { evalBenchReport } from '../eval/report.js';
import { runEval } from '../eval/run.js';
import type { BenchReport } from './report.js';

const docsDir = fileURLToPath(new URL('../../docs/', import.meta.url));
// Read at import, before a stack starts and points AWS_ENDPOINT_URL at its own emulator.
const externalEndpoint = process.env.AWS_ENDPOINT_URL;

export async function benchEval(stack: LocalStack): Promise<BenchReport> {
  const { result, written } = await runEval(stack, {
    outDir: fileURLToPath(new URL('../../docs/eval/synthetic/', import.meta.url)),
    command: 'npm run bench -- eval',
    saveCorpus: false,
    endpoint: externalEndpoint,
    log: (line) => process.stderr.write(`[bench] ${line}\n`),
  });
  return evalBenchReport(result, written, docsDir);
}
