/**
 * What an agent could inject without consolidated memory, at the same token
 * budget and with the same tokenizer: the raw turns ranked by BM25 against
 * the question, the same ranking fused with dense sentence-embedding
 * similarity (hybrid), and the most recent turns of the history. Each line
 * carries its turn's date, speaker and id, so all three are scored exactly
 * like the system.
 */
import MiniSearch from 'minisearch';
import { countTokens } from '../../functions/commons/tokens.js';
import { turnLine, type CorpusTurn } from './corpus.js';
import { cosine } from './embeddings.js';

export interface BaselineContext {
  readonly markdown: string;
  readonly tokens: number;
  /** Turn ids in the context. */
  readonly turns: readonly string[];
}

const HEADER = '## Conversation excerpts';

const lineTokens = new WeakMap<CorpusTurn, number>();
const costOf = (turn: CorpusTurn) => {
  let cost = lineTokens.get(turn);
  if (cost === undefined) {
    cost = countTokens(`\n${turnLine(turn)}`);
    lineTokens.set(turn, cost);
  }
  return cost;
};

/** Turns in the given order while they fit; `contiguous` stops at the first that does not. */
function pack(ordered: readonly CorpusTurn[], maxTokens: number, contiguous = false): BaselineContext {
  const chosen: CorpusTurn[] = [];
  let tokens = countTokens(HEADER);
  for (const turn of ordered) {
    const cost = costOf(turn);
    if (tokens + cost > maxTokens) {
      if (contiguous) break;
      continue;
    }
    chosen.push(turn);
    tokens += cost;
  }
  // Shown in conversation order, as a reader expects.
  chosen.sort((a, b) => a.at.localeCompare(b.at));
  let markdown = [HEADER, ...chosen.map(turnLine)].join('\n');
  while (countTokens(markdown) > maxTokens && chosen.length > 0) {
    chosen.pop();
    markdown = [HEADER, ...chosen.map(turnLine)].join('\n');
  }
  return { markdown, tokens: countTokens(markdown), turns: chosen.map((turn) => turn.id) };
}

/** BM25 (MiniSearch's BM25+) over the raw turns, exact terms, no fuzzy or prefix matching. */
export class Bm25Baseline {
  private readonly index = new MiniSearch<{ id: string; text: string }>({ fields: ['text'], idField: 'id' });
  private readonly byId: Map<string, CorpusTurn>;

  constructor(turns: readonly CorpusTurn[]) {
    this.byId = new Map(turns.map((turn) => [turn.id, turn]));
    this.index.addAll(turns.map((turn) => ({ id: turn.id, text: `${turn.speaker} ${turn.text}` })));
  }

  /** The turns that match the question, best first. */
  rank(question: string): CorpusTurn[] {
    return this.index.search(question).map((result) => this.byId.get(String(result.id))!);
  }

  context(question: string, maxTokens: number): BaselineContext {
    return pack(this.rank(question), maxTokens);
  }
}

/** The constant of reciprocal-rank fusion (Cormack et al.): damps the weight of the very first ranks. */
export const RRF_K = 60;

/**
 * Reciprocal-rank fusion: each id scores the sum of 1 / (k + rank) over the
 * rankings it appears in (rank from 1). Ties go to the better rank in the
 * earlier ranking, so the order is deterministic.
 */
export function reciprocalRankFusion(rankings: readonly (readonly string[])[], k = RRF_K): string[] {
  const scores = new Map<string, number>();
  const firstSeen = new Map<string, [number, number]>();
  rankings.forEach((ranking, r) =>
    ranking.forEach((id, i) => {
      scores.set(id, (scores.get(id) ?? 0) + 1 / (k + i + 1));
      if (!firstSeen.has(id)) firstSeen.set(id, [r, i]);
    }),
  );
  return [...scores.keys()].sort((a, b) => {
    const [ra, ia] = firstSeen.get(a)!;
    const [rb, ib] = firstSeen.get(b)!;
    return scores.get(b)! - scores.get(a)! || ra - rb || ia - ib;
  });
}

/**
 * Hybrid over the raw turns: the BM25 ranking fused by reciprocal-rank fusion
 * with every turn ranked by the cosine similarity of its sentence embedding
 * to the question's. The vectors are computed by the caller (once per run,
 * in batches), so this is pure.
 */
export class HybridBaseline {
  private readonly bm25: Bm25Baseline;
  private readonly byId: Map<string, CorpusTurn>;

  /** `vectors` holds one unit vector per turn id; turns without one are ranked by BM25 alone. */
  constructor(
    private readonly turns: readonly CorpusTurn[],
    private readonly vectors: ReadonlyMap<string, Float32Array>,
  ) {
    this.bm25 = new Bm25Baseline(turns);
    this.byId = new Map(turns.map((turn) => [turn.id, turn]));
  }

  /** Every turn, best first. */
  rank(question: string, queryVector: Float32Array): CorpusTurn[] {
    const lexical = this.bm25.rank(question).map((turn) => turn.id);
    const dense = this.turns
      .filter((turn) => this.vectors.has(turn.id))
      .map((turn) => ({ id: turn.id, similarity: cosine(queryVector, this.vectors.get(turn.id)!) }))
      .sort((a, b) => b.similarity - a.similarity)
      .map((scored) => scored.id);
    return reciprocalRankFusion([lexical, dense]).map((id) => this.byId.get(id)!);
  }

  context(question: string, queryVector: Float32Array, maxTokens: number): BaselineContext {
    return pack(this.rank(question, queryVector), maxTokens);
  }

  /** The same ranking packed to several budgets (the ranking is the costly part). */
  contexts(question: string, queryVector: Float32Array, budgets: readonly number[]): Map<number, BaselineContext> {
    const ranked = this.rank(question, queryVector);
    return new Map(budgets.map((budget) => [budget, pack(ranked, budget)]));
  }
}

/** The text a turn is embedded as: its speaker and words, as a question names them. */
export const embeddingText = (turn: CorpusTurn) => `${turn.speaker}: ${turn.text}`;

/** The most recent turns that fit the budget, without gaps. */
export function recentContext(turns: readonly CorpusTurn[], maxTokens: number): BaselineContext {
  return pack([...turns].reverse(), maxTokens, true);
}

/** The whole history as a baseline would render it: what "read everything" costs. */
export function fullHistoryTokens(turns: readonly CorpusTurn[]): number {
  return countTokens([HEADER, ...turns.map(turnLine)].join('\n'));
}
