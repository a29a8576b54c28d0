/**
 * What an evaluation run is asked to do and what it returns: the budgets and
 * ablations every question is asked at, and the result the report renders.
 * Shared by the replay, scoring and store modules and the report, so none of
 * them imports another for its types.
 */
import type { CorpusSample } from './corpus.js';
import type { Aggregate } from './metrics.js';

export const BUDGETS = [256, 512, 1024, 2048, 4096] as const;
/**
 * Ablations: the context built from part of the memory only (the `views` of
 * `GET /context`), at each of `ABLATION_BUDGETS`: the raw records alone, the
 * consolidated memory alone (items and both ladders), and the records and
 * items with one ladder, the other, or none.
 */
export const ABLATIONS: Record<string, string> = {
  'records only': 'records',
  'consolidated only': 'contacts,facts,tasks,time,count',
  'time ladder only': 'contacts,facts,tasks,time,records',
  'count ladder only': 'contacts,facts,tasks,count,records',
  'no ladders': 'contacts,facts,tasks,records',
};
export const ABLATION_BUDGETS = [512, 1024, 2048, 4096] as const;
/** The budget of the learning curve, the corrections' stale lines and the headline figures. */
export const ABLATION_BUDGET = 1024;

export interface EvalOptions {
  readonly corpusName: string;
  readonly samples: readonly CorpusSample[];
  /** Stages the corpus is replayed in; the learning curve has one point per stage. @default 4 */
  readonly stages?: number;
  readonly log?: (line: string) => void;
  /** How long to wait for the pipeline to settle after a stage. @default 30 min */
  readonly settleTimeoutMs?: number;
}

/** The service, and the three raw-turn baselines. */
export type Method = 'system' | 'bm25' | 'hybrid' | 'recent';
export const METHODS: readonly Method[] = ['system', 'bm25', 'hybrid', 'recent'];

export interface StoreSize {
  readonly items: Record<'contacts' | 'facts' | 'tasks', { live: number; archived: number }>;
  readonly summaries: number;
  /** JSON bytes of every stored item and summary, as the API returns them. */
  readonly memoryBytes: number;
  /** JSON bytes of the events as posted. */
  readonly rawBytes: number;
  /** Tokens of the live items' text and every summary's text. */
  readonly memoryTokens: number;
  /** Tokens of the whole history rendered as the baselines render turns. */
  readonly historyTokens: number;
}

export interface LearningPoint {
  readonly stage: number;
  readonly messages: number;
  readonly answerable: number;
  /** Strict recall (evidence ids printed) at 1,024 tokens; null when no question is answerable yet. */
  readonly systemStrictRecall: number | null;
  readonly bm25StrictRecall: number | null;
  readonly hybridStrictRecall: number | null;
  /** The service's expanded recall (traced through items and summaries) at 1,024 tokens. */
  readonly systemRecall: number | null;
  readonly bm25Recall: number | null;
}

export interface CorrectionResult {
  readonly question: string;
  readonly sample: string;
  readonly stale: readonly string[];
  /** Budgets at which a stale value appeared in the current-state sections (contacts, tasks, facts). */
  readonly staleInCurrentState: readonly number[];
  /** Budgets at which a stale value appeared anywhere, dated summaries included. */
  readonly staleAnywhere: readonly number[];
  /** Budgets at which the corrected answer appeared. */
  readonly answerPresent: readonly number[];
  /** The current-state lines that mention a superseded value, at 1,024 tokens: what to look at when this fails. */
  readonly staleLines: readonly string[];
}

export interface EvalResult {
  readonly corpus: string;
  readonly samples: number;
  readonly messages: number;
  readonly questions: number;
  readonly budgets: readonly number[];
  /** method → budget → category (and `overall`) → aggregate. */
  readonly results: Record<Method, Record<string, Record<string, Aggregate>>>;
  /** The system's expanded evidence recall with summaries not expanded (items' own evidence only), by budget. */
  readonly itemOnlyRecall: Record<string, number | null>;
  /** ablation → budget → category (and `overall`) → aggregate. */
  readonly ablations: Record<string, Record<string, Record<string, Aggregate>>>;
  readonly corrections: readonly CorrectionResult[];
  readonly learningCurve: readonly LearningPoint[];
  readonly store: StoreSize;
  readonly timing: {
    /** Posting every turn. */
    readonly ingestSeconds: number;
    /** From the first post of each stage until every record was consolidated, summed over stages. */
    readonly consolidationSeconds: number;
    /** consolidationSeconds per 1,000 messages. */
    readonly secondsPer1000Messages: number;
    /** After consolidation, until the ladders were idle, summed over stages (the final sweep included). */
    readonly ladderSeconds: number;
    readonly questionSeconds: number;
    /** Embedding every turn and question for the hybrid baseline (once, before the replay). */
    readonly embeddingSeconds: number;
  };
}
