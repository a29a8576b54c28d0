/**
 * One evaluation on a fresh local stack: the corpus (a file in the documented
 * format, or a generated one: the synthetic user-and-assistant corpus or the
 * friends chat), the report in `outDir`, and the benchmark report for
 * docs/BENCHMARKS.md.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { MOTO_VERSION } from '../../local/emulator.js';
import { startLocalStack, type LocalStack } from '../../local/local-stack.js';
import { friendsCorpus } from '../corpus/friends-chat.js';
import { recentStart, syntheticCorpus, type SyntheticOptions } from '../corpus/synthetic-corpus.js';
import { CorpusError, parseCorpus, type CorpusSample } from './corpus.js';
import { runEvaluation, type EvalResult } from './harness.js';
import { writeEvalReport, type WrittenReport } from './report.js';
import { runLoopEvaluation, type LoopResult } from './loop.js';
import { writeLoopReport } from './loop-report.js';
import { loopStart } from '../corpus/lifecycle-scenario.js';

/** The generated corpora: `synthetic` (a user and an assistant) and `friends` (casual chat between two friends). */
export const CORPUS_STYLES = ['synthetic', 'friends'] as const;
export type CorpusStyle = (typeof CORPUS_STYLES)[number];


export interface EvalRunOptions {
  /** A corpus file; a generated corpus when absent. */
  readonly corpusFile?: string;
  /** Which generated corpus. @default 'synthetic' */
  readonly style?: CorpusStyle;
  /** Size, seed and start of the generated corpus. */
  readonly generated?: SyntheticOptions;
  readonly outDir: string;
  readonly stages?: number;
  readonly command: string;
  /** An emulator already running (AWS_ENDPOINT_URL, e.g. LocalStack); otherwise one is started. */
  readonly endpoint?: string | undefined;
  readonly log: (line: string) => void;
  /** Write the generated corpus beside the report. @default true */
  readonly saveCorpus?: boolean;
}

export interface LoadedCorpus {
  readonly name: string;
  readonly samples: CorpusSample[];
  readonly raw: unknown;
}

export function loadCorpus(options: Pick<EvalRunOptions, 'corpusFile' | 'generated' | 'style'>): LoadedCorpus {
  if (options.corpusFile) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(options.corpusFile, 'utf8'));
    } catch (error) {
      throw new CorpusError(`${options.corpusFile}: ${(error as Error).message}`);
    }
    return { name: basename(options.corpusFile).replace(/\.json$/i, ''), samples: parseCorpus(raw), raw };
  }
  // Dated to end shortly before the run (from a Monday, so the same conversations every time): the final
  // sweep marks every silent day up to today.
  if (options.style === 'friends') {
    const size = { samples: options.generated?.samples ?? 2, months: options.generated?.months ?? 4 };
    const raw = friendsCorpus({ start: recentStart(size.months, new Date(), size.samples), ...size, ...options.generated });
    return { name: 'friends', samples: parseCorpus(raw), raw };
  }
  const raw = syntheticCorpus({ start: recentStart(options.generated?.months ?? 4, new Date(), options.generated?.samples ?? 3), ...options.generated });
  return { name: 'synthetic', samples: parseCorpus(raw), raw };
}

/** The evaluation on a running local stack; the report goes to `outDir`. */
export async function runEval(stack: LocalStack, options: EvalRunOptions, corpus = loadCorpus(options)): Promise<{ result: EvalResult; written: WrittenReport }> {
  mkdirSync(options.outDir, { recursive: true });
  if (!options.corpusFile && options.saveCorpus !== false) writeFileSync(join(options.outDir, 'corpus.json'), `${JSON.stringify(corpus.raw, null, 1)}\n`);
  const result = await runEvaluation(stack, { corpusName: corpus.name, samples: corpus.samples, ...(options.stages ? { stages: options.stages } : {}), log: options.log });
  const written = writeEvalReport(result, options.outDir, options.command, options.endpoint ? `external endpoint ${options.endpoint}` : `moto ${MOTO_VERSION}`);
  options.log(`report: ${written.markdownPath}`);
  return { result, written };
}

/** The evaluation on a fresh local stack (its own emulator unless `endpoint` names one). */
export async function runEvalOnLocalStack(options: EvalRunOptions): Promise<{ result: EvalResult; written: WrittenReport }> {
  // Parsed before the stack starts, so a bad corpus costs nothing.
  const corpus = loadCorpus(options);
  const stack = await startLocalStack({ endpoint: options.endpoint, port: 0, namePrefix: `eval-${Date.now().toString(36)}`, log: options.log });
  try {
    return await runEval(stack, options, corpus);
  } finally {
    await stack.stop();
  }
}

export interface LoopRunOptions {
  readonly outDir: string;
  /** Scenario pairs (two agents each). @default 2 */
  readonly pairs?: number;
  /** Batches per agent. @default 8 */
  readonly batches?: number;
  readonly messagesPerBatch?: number;
  readonly command: string;
  readonly endpoint?: string | undefined;
  readonly log: (line: string) => void;
}

/** The sizes `npm run eval -- --loop` runs at: about two and a half minutes on two cores. */
export const LOOP_DEFAULTS = { pairs: 2, batches: 8, messagesPerBatch: 40 } as const;

/** The note lifecycle loop on a running local stack; the report goes to `outDir`. */
export async function runLoop(stack: LocalStack, options: LoopRunOptions): Promise<{ result: LoopResult; written: { markdownPath: string; jsonPath: string } }> {
  const batches = options.batches ?? LOOP_DEFAULTS.batches;
  const result = await runLoopEvaluation(stack, {
    pairs: options.pairs ?? LOOP_DEFAULTS.pairs,
    scenario: { batches, messagesPerBatch: options.messagesPerBatch ?? LOOP_DEFAULTS.messagesPerBatch, start: loopStart({ batches }) },
    log: options.log,
  });
  const written = writeLoopReport(result, options.outDir, options.command, options.endpoint ? `external endpoint ${options.endpoint}` : `moto ${MOTO_VERSION}`);
  options.log(`report: ${written.markdownPath}`);
  return { result, written };
}

/** The loop on a fresh local stack (its own emulator unless `endpoint` names one). */
export async function runLoopOnLocalStack(options: LoopRunOptions) {
  const stack = await startLocalStack({ endpoint: options.endpoint, port: 0, namePrefix: `loop-${Date.now().toString(36)}`, log: options.log });
  try {
    return await runLoop(stack, options);
  } finally {
    await stack.stop();
  }
}
