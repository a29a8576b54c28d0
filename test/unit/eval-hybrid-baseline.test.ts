import { describe, expect, it } from 'vitest';
import { Bm25Baseline, HybridBaseline, RRF_K, embeddingText, reciprocalRankFusion } from '../../scripts/eval/baselines.js';
import type { CorpusTurn } from '../../scripts/eval/corpus.js';
import { cosine, embedTexts } from '../../scripts/eval/embeddings.js';
import { countTokens } from '../../functions/commons/tokens.js';

const turn = (id: string, speaker: string, text: string, minute: number): CorpusTurn => ({
  id,
  speaker,
  role: 'user',
  named: true,
  text,
  at: new Date(Date.parse('2025-03-01T10:00:00Z') + minute * 60_000).toISOString(),
  session: Number(id.slice(1, id.indexOf(':'))),
});

describe('reciprocal-rank fusion', () => {
  it('sums 1 / (k + rank) over the rankings, so agreement beats one first place', () => {
    // a: 1/61 + 1/63; b: 1/62 + 1/61; c: 1/63 + 1/62; d: dense only, 1/64.
    expect(reciprocalRankFusion([['a', 'b', 'c'], ['b', 'c', 'a', 'd']])).toEqual(['b', 'a', 'c', 'd']);
    expect(RRF_K).toBe(60);
  });

  it('keeps an id found by one ranking only, below those both rankings found', () => {
    expect(reciprocalRankFusion([['x'], ['y', 'x']])).toEqual(['x', 'y']);
  });

  it('breaks ties by the earlier ranking, then by rank', () => {
    expect(reciprocalRankFusion([['p', 'q'], ['q', 'p']])).toEqual(['p', 'q']);
    expect(reciprocalRankFusion([['m'], ['n']])).toEqual(['m', 'n']);
  });
});

describe('hybrid baseline over raw turns', () => {
  const turns = [
    turn('D1:1', 'Maya', 'hey how was ur week', 0),
    turn('D1:2', 'Leo', 'my little bro just graduated in marine biology!!', 1),
    turn('D1:3', 'Maya', 'the weather was awful, rained all weekend', 2),
    turn('D2:1', 'Leo', 'I studied for my driving test all week', 60),
    turn('D2:2', 'Maya', 'we got a puppy, a tiny beagle called Pixel', 61),
    turn('D2:3', 'Leo', 'work is busy, lots of meetings', 62),
  ];
  const question = "What did Leo's brother study?";

  it('ranks with hand-made vectors in fused order: a turn both rankings place well leads', () => {
    // BM25 matches only the speaker's name, "Leo": shortest turn first.
    expect(new Bm25Baseline(turns).rank(question).map((t) => t.id)).toEqual(['D2:3', 'D2:1', 'D1:2']);
    // Dense, by similarity to the query (1, 0): D1:2 0.95, D2:2 0.6, D2:1 0.2, D1:3 0.1, D1:1 0, D2:3 -1.
    const axis = (x: number, y: number) => Float32Array.from([x, y]);
    const vectors = new Map<string, Float32Array>([
      ['D1:1', axis(0, 1)], ['D1:2', axis(0.95, 0.31)], ['D1:3', axis(0.1, 0.99)], ['D2:1', axis(0.2, 0.98)], ['D2:2', axis(0.6, 0.8)], ['D2:3', axis(-1, 0)],
    ]);
    // D1:2 1/63 + 1/61, D2:1 1/62 + 1/63, D2:3 1/61 + 1/66, then dense only: D2:2 1/62, D1:3 1/64, D1:1 1/65.
    expect(new HybridBaseline(turns, vectors).rank(question, axis(1, 0)).map((t) => t.id)).toEqual(['D1:2', 'D2:1', 'D2:3', 'D2:2', 'D1:3', 'D1:1']);
  });

  it('packs its ranking to the budget with ids, dates and speakers, like BM25', () => {
    const vectors = new Map(turns.map((t, i) => [t.id, Float32Array.from([i === 1 ? 1 : 0, i === 1 ? 0 : 1])]));
    const context = new HybridBaseline(turns, vectors).context(question, Float32Array.from([1, 0]), 40);
    expect(context.tokens).toBeLessThanOrEqual(40);
    expect(countTokens(context.markdown)).toBe(context.tokens);
    expect(context.markdown).toContain('- [2025-03-01 10:01] Leo: my little bro just graduated in marine biology!! (D1:2)');
  });

  it('with the sentence encoder, finds a paraphrase that shares no content word with the question', async () => {
    const vectors = await embedTexts(turns.map(embeddingText));
    const [query] = await embedTexts([question]);
    expect(vectors[0]!.length).toBe(512);
    expect(cosine(vectors[1]!, vectors[1]!)).toBeCloseTo(1, 5);
    const hybrid = new HybridBaseline(turns, new Map(turns.map((t, i) => [t.id, vectors[i]!])));
    const ranked = hybrid.rank(question, query!).map((t) => t.id);
    // BM25 alone ranks the graduation turn last of the three turns by Leo; the dense ranking lifts it to the top two.
    expect(ranked.indexOf('D1:2')).toBeLessThan(2);
  }, 60_000);
});
