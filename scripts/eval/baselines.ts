/**
 * What an agent could inject without consolidated memory, at the same token
 * budget and with the same tokenizer: the raw turns ranked by BM25 against
 * the question, and the most recent turns of the history. Each line carries
 * its turn's date and id, so both are scored exactly like the system.
 */
import MiniSearch from 'minisearch';
import { countTokens } from '../../functions/commons/tokens.js';
import { turnLine, type CorpusTurn } from './corpus.js';

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

  context(question: string, maxTokens: number): BaselineContext {
    const ranked = this.index.search(question).map((result) => this.byId.get(String(result.id))!);
    return pack(ranked, maxTokens);
  }
}

/** The most recent turns that fit the budget, without gaps. */
export function recentContext(turns: readonly CorpusTurn[], maxTokens: number): BaselineContext {
  return pack([...turns].reverse(), maxTokens, true);
}

/** The whole history as a baseline would render it: what "read everything" costs. */
export function fullHistoryTokens(turns: readonly CorpusTurn[]): number {
  return countTokens([HEADER, ...turns.map(turnLine)].join('\n'));
}
