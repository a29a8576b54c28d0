/**
 * One evaluation on a fresh local stack: the corpus (a file in the documented
 * format, or the synthetic corpus), the report in `outDir`, and the benchmark
 * report for docs/BENCHMARKS.md.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { startLocalStack } from '../../local/local-stack.js';
import { syntheticCorpus, type SyntheticOptions } from '../corpus/synthetic-corpus.js';
import { parseCorpus, type CorpusSample } from './corpus.js';
import { runEvaluation, type EvalResult } from './harness.js';
import { writeEvalReport, type WrittenReport } from './report.js';

export interface EvalRunOptions {
  /** A corpus file; the synthetic corpus when absent. */
  readonly corpusFile?: string;
  readonly synthetic?: SyntheticOptions;
  readonly outDir: string;
  readonly stages?: number;
  readonly command: string;
  /** An emulator already running; otherwise one is started. */
  readonly endpoint?: string;
  readonly log: (line: string) => void;
}

export function loadCorpus(options: Pick<EvalRunOptions, 'corpusFile' | 'synthetic'>): { name: string; samples: CorpusSample[]; raw: unknown } {
  if (options.corpusFile) {
    const raw: unknown = JSON.parse(readFileSync(options.corpusFile, 'utf8'));
    return { name: basename(options.corpusFile).replace(/\.json$/i, ''), samples: parseCorpus(raw), raw };
  }
  const raw = syntheticCorpus(options.synthetic);
  return { name: 'synthetic', samples: parseCorpus(raw), raw };
}

export async function runEvalOnLocalStack(options: EvalRunOptions): Promise<{ result: EvalResult; written: WrittenReport }> {
  const corpus = loadCorpus(options);
  mkdirSync(options.outDir, { recursive: true });
  if (!options.corpusFile) writeFileSync(join(options.outDir, 'corpus.json'), `${JSON.stringify(corpus.raw, null, 1)}\n`);
  const stack = await startLocalStack({ endpoint: options.endpoint, port: 0, namePrefix: `eval-${Date.now().toString(36)}`, log: options.log });
  try {
    const result = await runEvaluation(stack, { corpusName: corpus.name, samples: corpus.samples, ...(options.stages ? { stages: options.stages } : {}), log: options.log });
    const written = writeEvalReport(result, options.outDir, options.command);
    options.log(`report: ${written.markdownPath}`);
    return { result, written };
  } finally {
    await stack.stop();
  }
}
