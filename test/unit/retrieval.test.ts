import { describe, expect, it } from 'vitest';
import { countTokens } from '../../functions/commons/tokens.js';
import { renderRecall, cutToRelevant } from '../../functions/domain/context.js';
import { buildSegment, decodedBytes, DECODED_PER_HEADER_BYTE, decodeSegment, encodeSegment, mergePlan, mergeSegments, sentenceVectors, unitVector, type SegmentRef, type SegmentUnit } from '../../functions/domain/index-segment.js';
import { itemUnit, MAX_RECORD_SENTENCES, pronounReferent, recordSentences, recordUnit, searchText, summaryUnit, type IndexUnit } from '../../functions/domain/index-units.js';
import { informationContent, loadSegment, neighbourShare, questionDates, questionPeople, reciprocalRankFusion, topIndices, understand, UnitIndex } from '../../functions/domain/retrieval.js';
import type { Snapshot } from '../../functions/domain/snapshot.js';
import { indexTerms } from '../../functions/domain/terms.js';

const DIMS = 4;
const unitVec = (...xs: number[]) => {
  const norm = Math.hypot(...xs) || 1;
  return Float32Array.from(xs.map((x) => x / norm));
};
const withTerms = (unit: IndexUnit): SegmentUnit => ({ ...unit, terms: indexTerms(searchText(unit)).join(' ') });
function record(id: string, content: string, at: string, speaker = 'Caroline', session = id.split(':')[0]!): IndexUnit {
  return recordUnit({ id, sequence: 1, timestamp: at, role: 'user', content: `${speaker}: ${content}`, interactionId: session, metadata: { speaker } });
}
function indexOf(units: IndexUnit[], vectors?: Float32Array[], dropped: string[] = []): UnitIndex {
  const segment = buildSegment('test-model', DIMS, units.map(withTerms), vectors ?? units.map(() => unitVec(1, 0, 0, 0)));
  return new UnitIndex([loadSegment('s1', segment)], new Set(dropped), 'test-model');
}
const snapshot: Snapshot = {
  tenantId: 'default',
  agentId: 'a',
  version: 3,
  generatedAt: '2023-09-01T00:00:00Z',
  freshness: { lastConsolidatedSequence: 10, lastIngestedSequence: 10, pendingRecords: 0 },
  time: [],
  count: [],
};
const NOW = '2023-09-01T00:00:00Z';

describe('index terms', () => {
  it('stem words, drop stop words and punctuation, and add the lemma of irregular forms', () => {
    expect(indexTerms('The support groups were running!')).toEqual(['support', 'group', 'run']);
    expect(indexTerms('I went home')).toContain('go');
  });
});

describe('units', () => {
  it('name the one person the turn before names as who an opening "she" or "he" is, across a bare question back, and nobody when it is not clear', () => {
    const turn = (sequence: number, speaker: string, content: string, session = 'S20') =>
      recordUnit({ id: `D20:${sequence}`, sequence, timestamp: '2025-09-01T10:00:00Z', role: 'user', content, interactionId: session, metadata: { speaker } });
    /** The turns before a record at sequence 3, nearest last. */
    const after = (...before: IndexUnit[]) => (back: number) => before.find((u) => u.sequence === 3 - back);
    const reply = turn(3, 'Owen', "She said I'd made more difference in three months than she expected.");
    expect(pronounReferent(reply, after(turn(2, 'Dana', 'Of course you did! Tell me what Sandra said.')))).toBe('Sandra');
    expect(pronounReferent(turn(3, 'Owen', 'honestly he took it well'), after(turn(2, 'Dana', 'did you tell Colin yet?')))).toBe('Colin');
    // "did you hear about Rachel" / "no?" / "she's leaving": the name before the question back; names in the turn itself do not matter.
    expect(pronounReferent(turn(3, 'Priya', "she's leaving. offer from Canvasly, design lead"), after(turn(1, 'Priya', 'ok did you hear about Rachel'), turn(2, 'Marcus', 'no?')))).toBe('Rachel');
    // Two people named before, no opening pronoun, another session, a turn that is not right before: nobody.
    expect(pronounReferent(reply, after(turn(2, 'Dana', 'Did Sandra talk to Colin?')))).toBeUndefined();
    expect(pronounReferent(turn(3, 'Owen', 'The review went fine.'), after(turn(2, 'Dana', 'Tell me what Sandra said.')))).toBeUndefined();
    expect(pronounReferent(reply, after(turn(2, 'Dana', 'Tell me what Sandra said.', 'S19')))).toBeUndefined();
    expect(pronounReferent(reply, after(turn(1, 'Dana', 'Tell me what Sandra said.')))).toBeUndefined();
    // A question back with words of its own is a turn like any other.
    expect(pronounReferent(reply, after(turn(1, 'Dana', 'Tell me what Sandra said.'), turn(2, 'Owen', 'the review or the pay rise?')))).toBeUndefined();
    // Days and months are not people.
    expect(pronounReferent(reply, after(turn(2, 'Dana', 'How did Monday go with Sandra?')))).toBe('Sandra');
  });

  it('take a record speaker from the event\'s own field before metadata, as the API documents it', () => {
    const base = { id: 'D1:1', sequence: 1, timestamp: '2026-03-01T10:00:00Z', role: 'user', content: 'Ines: our tortoise woke up.' };
    expect(recordUnit({ ...base, speaker: 'Ines' })).toMatchObject({ speaker: 'Ines', text: 'our tortoise woke up.' });
    expect(recordUnit({ ...base, speaker: 'Ines', metadata: { speaker: 'Someone else' } }).speaker).toBe('Ines');
    expect(recordUnit({ ...base, content: 'our tortoise woke up.' }).speaker).toBe('user');
  });

  it('take a record speaker from metadata, say it once, and anchor relative dates against the record time', () => {
    const unit = recordUnit({ id: 'D1:3', sequence: 3, timestamp: '2023-05-08T13:56:00Z', role: 'user', content: 'Caroline: I went to a support group yesterday.', interactionId: 'session-1', metadata: { speaker: 'Caroline' } });
    expect(unit).toMatchObject({ id: 'D1:3', kind: 'record', speaker: 'Caroline', session: 'session-1', text: 'I went to a support group yesterday (2023-05-07).' });
  });

  it('keep every evidence id of an item and the sources of a base summary (children above it)', () => {
    expect(itemUnit('fact', { id: 'f1', statement: 'Rosa is a nurse', evidence: ['D1:3', 'D4:2'], status: 'active', confidence: 0.9, sourceAt: '2023-05-01T00:00:00Z' }).evidence).toEqual(['D1:3', 'D4:2']);
    const base = { id: 'time:0:1', ladder: 'time' as const, level: 0, from: '2023-05-08', to: '2023-05-08', text: 'A day', sources: ['D1:1', 'D1:2'], children: [], empty: false };
    expect(summaryUnit(base)).toMatchObject({ kind: 'summary', evidence: ['D1:1', 'D1:2'], label: 'day 2023-05-08' });
    expect(summaryUnit({ ...base, id: 'time:1:1', level: 1, to: '2023-05-14', children: ['time:0:1'], sources: [] })).toMatchObject({ evidence: ['time:0:1'], label: 'week 2023-05-08 to 2023-05-14' });
    expect(summaryUnit({ ...base, empty: true, text: '' })).toBeUndefined();
  });
});

describe('segments', () => {
  it('round-trip through the stored form, with int8 vectors within 1% of the cosine', () => {
    const units = [record('D1:1', 'painting with the kids', '2023-05-08T10:00:00Z')];
    const vector = unitVec(0.3, -0.5, 0.7, 0.1);
    const decoded = decodeSegment(encodeSegment(buildSegment('m', DIMS, units.map(withTerms), [vector])));
    expect(decoded.units).toEqual(units.map(withTerms));
    const restored = unitVector(decoded, 0);
    const cosine = restored.reduce((sum, x, i) => sum + x * vector[i]!, 0);
    expect(cosine).toBeGreaterThan(0.99);
  });

  it('merge a full tier oldest first, so segments stay logarithmic in the number of batches', () => {
    const refs = (tier: number, n: number): SegmentRef[] => Array.from({ length: n }, (_, i) => ({ key: `t${tier}-${i}`, units: 1, bytes: 1, tier }));
    expect(mergePlan(refs(0, 3))).toBeUndefined();
    expect(mergePlan([...refs(1, 2), ...refs(0, 5)])).toEqual({ tier: 0, keys: ['t0-0', 't0-1', 't0-2', 't0-3'] });
    expect(mergePlan([...refs(1, 4), ...refs(0, 1)])).toEqual({ tier: 1, keys: ['t1-0', 't1-1', 't1-2', 't1-3'] });
  });

  it('merge with the newest copy of an id winning and dropped ids left out', () => {
    const old = buildSegment('m', DIMS, [withTerms(record('D1:1', 'old text', NOW)), withTerms(record('D1:2', 'erased', NOW))], [unitVec(1, 0, 0, 0), unitVec(0, 1, 0, 0)]);
    const fresh = buildSegment('m', DIMS, [withTerms(record('D1:1', 'new text', NOW))], [unitVec(0, 0, 1, 0)]);
    const merged = mergeSegments([old, fresh], new Set(['D1:2']));
    expect(merged.units.map((u) => [u.id, u.text])).toEqual([['D1:1', 'new text']]);
  });
});

describe('sentence vectors', () => {
  const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

  it('are a long record\'s sentences, short ones read with the next, anchored dates left out; none for a turn of one part', () => {
    const long = recordUnit({ id: 'D1:3', sequence: 3, timestamp: '2025-02-03T19:15:00Z', role: 'user', content: 'Cold and damp. The river was frozen on Saturday and Biscuit refused to walk past the bridge. Retired racing greyhound, seven years old, and scared of creaking ice.', metadata: { speaker: 'Freya' } });
    expect(recordSentences(long)).toEqual([
      'Freya: Cold and damp. The river was frozen on Saturday and Biscuit refused to walk past the bridge.',
      'Freya: Retired racing greyhound, seven years old, and scared of creaking ice.',
    ]);
    expect(recordSentences(record('D1:4', 'I went to a support group yesterday. It was great.', NOW))).toEqual([]);
    // A pasted document is read in at most MAX_RECORD_SENTENCES runs of neighbouring sentences.
    const pasted = recordSentences(record('D1:9', Array.from({ length: 40 }, (_, i) => `Clause ${i} of the tenancy agreement applies here.`).join(' '), NOW));
    // Forty sentences, at most sixteen runs: runs of three, fourteen of them.
    expect(MAX_RECORD_SENTENCES).toBe(16);
    expect(pasted).toHaveLength(14);
    expect(pasted[0]).toBe('Caroline: Clause 0 of the tenancy agreement applies here. Clause 1 of the tenancy agreement applies here. Clause 2 of the tenancy agreement applies here.');
    expect(recordSentences(record('D1:5', 'Bertha is the van, yes.', NOW))).toEqual([]);
    expect(recordSentences(itemUnit('fact', { id: 'f1', statement: 'Rosa is a nurse. She works nights at the county hospital.', evidence: ['D1:3'], status: 'active', confidence: 0.9 }))).toEqual([]);
  });

  it('round-trip with their units, follow them through a merge, and leave with a dropped unit', () => {
    const units = [withTerms(record('D1:1', 'one', NOW)), withTerms(record('D1:2', 'two', NOW))];
    const segment = buildSegment('m', DIMS, units, [unitVec(1, 0, 0, 0), unitVec(0, 1, 0, 0)], [
      { owner: 1, vector: unitVec(0, 0, 1, 0) },
      { owner: 1, vector: unitVec(0, 0, 0, 1) },
      { owner: 0, vector: unitVec(0, 1, 1, 0) },
    ]);
    const decoded = decodeSegment(encodeSegment(segment));
    expect([...decoded.sentences!.owners]).toEqual([1, 1, 0]);
    expect(cosine(sentenceVectors(decoded).get(1)![1]!, unitVec(0, 0, 0, 1))).toBeGreaterThan(0.99);
    expect(cosine(unitVector(decoded, 1), unitVec(0, 1, 0, 0))).toBeGreaterThan(0.99);
    // A segment without sentences stores none and reads as one written before they existed.
    expect(decodeSegment(encodeSegment(buildSegment('m', DIMS, units, [unitVec(1, 0, 0, 0), unitVec(0, 1, 0, 0)]))).sentences).toBeUndefined();
    expect(() => buildSegment('m', DIMS, units, [unitVec(1, 0, 0, 0), unitVec(0, 1, 0, 0)], [{ owner: 2, vector: unitVec(1, 0, 0, 0) }])).toThrow(/sentence of unit 2/);
    // A stored segment whose sentence names a unit it does not hold is refused, not read into another's place.
    const bad = encodeSegment({ ...segment, sentences: { ...segment.sentences!, owners: Uint32Array.from([1, 5, 0]) } });
    expect(() => decodeSegment(bad)).toThrow(/beyond its 2 units/);

    // A reader's memory bound counts the vectors as they are and the units by their header's length.
    expect(decodedBytes(segment)).toBeUndefined();
    const header = decoded.headerBytes!;
    expect(header).toBeGreaterThan(JSON.stringify(units).length);
    expect(decodedBytes(decoded)).toBe(2 * (DIMS + 4) + 3 * (DIMS + 4 + 4) + DECODED_PER_HEADER_BYTE * header);

    const newer = buildSegment('m', DIMS, [withTerms(record('D1:3', 'three', NOW))], [unitVec(1, 0, 0, 0)], [{ owner: 0, vector: unitVec(0, 0, 1, 0) }]);
    const merged = mergeSegments([decoded, newer], new Set(['D1:1']));
    expect(merged.units.map((u) => u.id)).toEqual(['D1:2', 'D1:3']);
    expect(merged.sentences.map((s) => s.owner)).toEqual([0, 0, 1]);
    expect(cosine(merged.sentences[2]!.vector, unitVec(0, 0, 1, 0))).toBeGreaterThan(0.99);
  });

  it('find a long record by the one sentence that answers, where its whole text matches less than another record', () => {
    const rambling = withTerms(record('D1:3', 'The river was frozen and the bridge creaked. He used to race at Towcester.', NOW));
    const other = withTerms(record('D2:1', 'Walked the dog by the canal this morning.', NOW));
    const query = unitVec(1, 0, 0, 0);
    const search = (sentences: boolean) => {
      const segment = buildSegment('test-model', DIMS, [rambling, other], [unitVec(0.2, 1, 0, 0), unitVec(0.7, 0.7, 0, 0)], sentences ? [{ owner: 0, vector: unitVec(0, 1, 0, 0) }, { owner: 0, vector: unitVec(1, 0.1, 0, 0) }] : []);
      const index = new UnitIndex([loadSegment('s1', segment)], new Set(), 'test-model');
      return index.search({ query: 'what breed', queryVector: query, now: NOW }).ranked.map((r) => r.unit.id);
    };
    expect(search(false)[0]).toBe('D2:1');
    expect(search(true)[0]).toBe('D1:3');
  });
});

describe('ranking', () => {
  it('fuses ranks reciprocally and picks the top scores', () => {
    expect(reciprocalRankFusion([1, undefined])).toBeCloseTo(1 / 61);
    expect(reciprocalRankFusion([1, 1])).toBeCloseTo(2 / 61);
    expect(topIndices(Float32Array.from([0.1, 0.9, 0, 0.5]), 2)).toEqual([1, 3]);
  });

  it('finds a record from months ago by its stemmed words', () => {
    const index = indexOf([
      record('D1:3', 'I went to the LGBTQ support group and it was powerful.', '2023-01-08T10:00:00Z'),
      record('D9:1', 'We painted a sunset at the lake.', '2023-08-20T10:00:00Z', 'Melanie'),
      record('D9:2', 'The kids loved painting.', '2023-08-20T10:01:00Z', 'Melanie'),
    ]);
    const { ranked } = index.search({ query: 'What did Caroline think of the support groups?', now: NOW });
    expect(ranked[0]!.unit.id).toBe('D1:3');
  });

  it('matches a word in another form that its stem leaves apart, below the form itself', () => {
    const index = indexOf([
      record('D1:1', 'Careful with the walnuts, Priya is allergic.', '2023-02-01T10:00:00Z'),
      record('D1:2', 'Priya brought the salad.', '2023-02-01T10:01:00Z'),
      record('D2:1', 'Priya says her allergy flared up again on the boat.', '2023-03-01T10:00:00Z'),
    ]);
    const ranked = (variantWeight: number) => index.search({ query: 'Does Priya have an allergy?', now: NOW, tuning: { variantWeight } }).ranked;
    const score = (variantWeight: number, id: string) => ranked(variantWeight).find((r) => r.unit.id === id)!.score;
    // Porter2 stems "allergy" to "allergi" and "allergic" to "allerg": only the variant match lifts D1:1 over its neighbour.
    expect(indexTerms('allergy allergic')).toEqual(['allergi', 'allerg']);
    expect(score(0, 'D1:1')).toBeCloseTo(score(0, 'D1:2'), 2);
    expect(score(0.7, 'D1:1')).toBeGreaterThan(score(0.7, 'D1:2'));
    expect(ranked(0.7).slice(0, 2).map((r) => r.unit.id)).toEqual(['D2:1', 'D1:1']);
    // Short stems are not widened: "care" does not reach "career".
    const careers = indexOf([record('D1:1', 'Her career in law', NOW), record('D1:2', 'Who takes care of the dog', NOW)]);
    expect(careers.search({ query: 'career change', now: NOW }).ranked.map((r) => r.unit.id)).toEqual(['D1:1']);
  });

  it('favours what was said early on when the question asks how things began', () => {
    const index = indexOf([
      record('D1:4', 'I do the night shift at the depot for now.', '2023-01-05T10:00:00Z'),
      record('D9:2', 'The new shift pattern at the depot is days only.', '2023-08-20T10:00:00Z'),
    ]);
    const top = (query: string) => index.search({ query, now: NOW }).ranked[0]!.unit.id;
    expect(top('Which shift did Caroline work at the depot?')).toBe('D9:2');
    expect(top('Which shift did Caroline work at the depot originally?')).toBe('D1:4');
    expect(understand('When she first joined the depot, which shift was it?', NOW, []).earliest).toBe(true);
    expect(understand('Does she sleep better now than when she began the course?', NOW, []).earliest).toBe(true);
    expect(understand('When did she begin the course?', NOW, []).earliest).toBe(false);
    expect(understand('what car did he drive in the early days of the job', NOW, []).earliest).toBe(true);
    expect(understand('What did Ilse bring to the choir when she joined, at the very outset?', NOW, []).earliest).toBe(true);
    expect(understand('Is the original lease still in the drawer?', NOW, []).earliest).toBe(false);
    expect(understand('Who came first in the race?', NOW, []).earliest).toBe(false);
  });

  it('ranks by dense similarity when no word matches', () => {
    const index = indexOf(
      [record('D1:1', 'We adopted a golden retriever puppy', NOW), record('D1:2', 'The quarterly report is late', NOW)],
      [unitVec(0, 1, 0, 0), unitVec(1, 0, 0, 0)],
    );
    const { ranked } = index.search({ query: 'Which pet?', queryVector: unitVec(0.1, 1, 0, 0), now: NOW });
    expect(ranked[0]!.unit.id).toBe('D1:1');
  });

  it('hides dropped units and older copies of an id', () => {
    const older = buildSegment('test-model', DIMS, [withTerms(record('D1:1', 'the violin recital', NOW))], [unitVec(1, 0, 0, 0)]);
    const newer = buildSegment('test-model', DIMS, [withTerms(record('D1:1', 'the cello recital', NOW)), withTerms(record('D1:2', 'a violin lesson', NOW))], [unitVec(1, 0, 0, 0), unitVec(1, 0, 0, 0)]);
    const index = new UnitIndex([loadSegment('a', older), loadSegment('b', newer)], new Set(['D1:2']), 'test-model');
    const { ranked } = index.search({ query: 'violin recital', now: NOW });
    expect(ranked.map((r) => [r.unit.id, r.unit.text])).toEqual([['D1:1', 'the cello recital']]);
  });

  it('reads the dates and people a question names', () => {
    expect(questionDates('What did she do in June 2023?', NOW)).toEqual([{ from: '2023-06-01', to: '2023-06-30' }]);
    expect(questionDates('What happened on 7 May 2023?', NOW)).toEqual([{ from: '2023-05-07', to: '2023-05-07' }]);
    expect(questionDates('What is her favourite colour?', NOW)).toEqual([]);
    expect(questionPeople("What is Melanie's hobby?", ['Caroline', 'Melanie Brooks'])).toEqual(['Melanie Brooks']);
    // "Now" asks for the current state, not for what was said on the last day.
    expect(questionDates('Where does she work now?', NOW)).toEqual([]);
  });

  it('reads seasons and years as the days they span', () => {
    const asked = (query: string, at = NOW) => questionDates(query, at);
    expect(asked('Which trips did they take in the summer of 2022?')).toEqual([{ from: '2022-06-01', to: '2022-08-31' }]);
    expect(asked('What was worrying him in spring 2023?')).toEqual([{ from: '2023-03-01', to: '2023-05-31' }]);
    // Asked on 1 September: "last summer" has just ended, "this winter" is still to come, "last winter" began in December.
    expect(asked('Who visited last summer?')).toEqual([{ from: '2023-06-01', to: '2023-08-31' }]);
    expect(asked('What are the plans for this winter?')).toEqual([{ from: '2023-12-01', to: '2024-02-29' }]);
    expect(asked('What broke last winter?')).toEqual([{ from: '2022-12-01', to: '2023-02-28' }]);
    expect(asked('What happened over the winter?', '2024-01-20T00:00:00Z')).toEqual([{ from: '2023-12-01', to: '2024-02-29' }]);
    expect(asked('Where did she live in 2021?')).toEqual([{ from: '2021-01-01', to: '2021-12-31' }]);
    expect(asked('What changed in late 2022?')).toEqual([{ from: '2022-09-01', to: '2022-12-31' }]);
    // "fall" the verb is no season, nor is a season naming a thing; a year in an id or a range is no year asked about.
    expect(asked('Did she fall at the climbing gym?')).toEqual([]);
    expect(asked('Where did the summer holiday end up being?')).toEqual([]);
    expect(asked('What did he do over the summer break?')).toEqual([{ from: '2023-06-01', to: '2023-08-31' }]);
    expect(asked('What is in the 2023-24 budget?')).toEqual([]);
  });

  it('reads a question as asking for a time only when "when" is its question word', () => {
    const temporal = (query: string) => understand(query, NOW, []).temporal;
    expect(temporal('When did Owen run his first parkrun?')).toBe(true);
    expect(temporal('And when is the wedding?')).toBe(true);
    expect(temporal('Remind me, when was the lease signed?')).toBe(true);
    expect(temporal('What date did the course start?')).toBe(true);
    expect(temporal('Is Owen sleeping more now than when he started coaching?')).toBe(false);
    expect(temporal('What did Dana say when the knee gave out?')).toBe(false);
  });

  it('lets the turns just before and after the best records share in their score, within their session only', () => {
    const turn = (id: string, sequence: number, speaker: string, content: string, session: string) =>
      recordUnit({ id, sequence, timestamp: '2023-05-08T10:00:00Z', role: 'user', content, interactionId: session, metadata: { speaker } });
    const index = indexOf([
      turn('D7:9', 1, 'Rob', 'The boiler engineer comes on Thursday morning between eight and noon.', 'S7'),
      turn('D8:1', 2, 'Josh', 'Happy birthday mum, we all chipped in for your present this year.', 'S8'),
      turn('D8:2', 3, 'Helen', 'Thank you all so much, six weeks of pottery at the Clay Barn, I am so excited.', 'S8'),
    ]);
    // The ranking by earlier turns (its own test, below) is left out: it would bring the reply in by itself.
    const order = (neighbourLift: number) => index.search({ query: 'What birthday present did mum get?', now: NOW, tuning: { neighbourLift, contextWeight: 0 } }).ranked.map((r) => r.unit.id);
    expect(order(0)).toEqual(['D8:1']);
    // The reply that names the present comes in after the turn that matched; the turn before, of another session, does not.
    expect(order(0.2)).toEqual(['D8:1', 'D8:2']);
    // A block of a handful of lines gives each line to a match of its own: no neighbour comes in at 256 tokens.
    const within = (budgetTokens: number) => index.search({ query: 'What birthday present did mum get?', now: NOW, budgetTokens, tuning: { contextWeight: 0 } }).ranked.map((r) => r.unit.id);
    expect(within(256)).toEqual(['D8:1']);
    expect(within(1024)).toEqual(['D8:1', 'D8:2']);
  });

  it('reaches across a bare question back to the turn that answers it, and from an answer to what was asked about', () => {
    const turn = (id: string, sequence: number, speaker: string, content: string) =>
      recordUnit({ id, sequence, timestamp: '2023-05-08T10:00:00Z', role: 'user', content, interactionId: 'S3', metadata: { speaker } });
    const units = [
      turn('D3:4', 1, 'Nadia', 'The landlord says the heating stays off until October.'),
      turn('D3:5', 2, 'Omar', 'seriously?'),
      turn('D3:6', 3, 'Nadia', 'apparently the contract only covers winter months'),
      turn('D3:7', 4, 'Omar', 'ok see you at eight then'),
    ];
    const ids = (query: string) => indexOf(units).search({ query, now: NOW, budgetTokens: 1024, tuning: { contextWeight: 0 } }).ranked.map((r) => r.unit.id);
    // "seriously?" asks nothing of its own: the turn after it answers the landlord's rule; the turn after that is not lifted.
    const heating = ids('What did the landlord say about the heating?');
    expect(heating[0]).toBe('D3:4');
    expect(heating).toContain('D3:6');
    expect(heating).not.toContain('D3:7');
    expect(ids('What does the contract cover?').slice(0, 2)).toEqual(['D3:6', 'D3:4']);
    // A question with words of its own is a turn like any other: nothing is reached across it.
    const asked = [units[0]!, turn('D3:5', 2, 'Omar', 'what about the boiler repair?'), units[2]!];
    expect(indexOf(asked).search({ query: 'What did the landlord say about the heating?', now: NOW, budgetTokens: 1024, tuning: { contextWeight: 0 } }).ranked.map((r) => r.unit.id)).not.toContain('D3:6');
  });

  it('ranks a reply by the turns said just before it in its session, not by turns of another session', () => {
    const turn = (id: string, sequence: number, speaker: string, content: string, session: string) =>
      recordUnit({ id, sequence, timestamp: '2023-05-08T10:00:00Z', role: 'user', content, interactionId: session, metadata: { speaker } });
    const units = [
      turn('D4:7', 1, 'Ines', 'Wish me luck for the regional chess tournament on Saturday!', 'S4'),
      turn('D4:8', 2, 'Marek', 'You will smash it, send pics of the trophy', 'S4'),
      turn('D5:1', 3, 'Marek', 'So?? how did it go', 'S5'),
      turn('D5:2', 4, 'Ines', 'Fourth out of thirty!', 'S5'),
      turn('D5:3', 5, 'Marek', 'amazing, proud of you', 'S5'),
      turn('D5:4', 6, 'Ines', 'How did the chess tournament go for you at the club?', 'S5'),
      turn('D5:5', 7, 'Marek', 'Won two games, lost one, the usual', 'S5'),
    ];
    const ids = (contextWeight: number) => indexOf(units).search({ query: 'Where did Ines finish in the chess tournament?', now: NOW, budgetTokens: 1024, tuning: { contextWeight, neighbourLift: 0 } }).ranked.map((r) => r.unit.id);
    expect(ids(0)).not.toContain('D5:5');
    // The reply just after the question that names the tournament comes in; "Fourth out of thirty!" follows a
    // turn of another session's tournament talk (D4:8 is S4's), so nothing lifts it across the session's start.
    expect(ids(0.4)).toContain('D5:5');
    expect(ids(0.4)).not.toContain('D5:1');
  });

  it('gives a block no neighbour lift up to 256 tokens, all of it from 512, in proportion between', () => {
    expect([undefined, 128, 256, 384, 512, 4096].map(neighbourShare)).toEqual([1, 0, 0, 0.5, 1, 1]);
  });

  it('favours units dated in the span the question names, and units by the person it names', () => {
    const index = indexOf([
      record('D1:1', 'I ran a race with friends.', '2023-03-04T10:00:00Z', 'Caroline'),
      record('D5:1', 'I ran a race with friends.', '2023-06-10T10:00:00Z', 'Melanie'),
      record('D6:1', 'I ran a race with friends.', '2023-07-10T10:00:00Z', 'Caroline'),
    ]);
    expect(index.search({ query: 'Which race did they run in June 2023?', now: NOW }).ranked[0]!.unit.id).toBe('D5:1');
    expect(index.search({ query: 'Which race did Caroline run?', now: NOW }).ranked.slice(0, 2).map((r) => r.unit.id).sort()).toEqual(['D1:1', 'D6:1']);
  });

  it('lifts what a named speaker said in a group, and nothing in a chat of two where half the turns are theirs', () => {
    const said = (speakers: string[]) =>
      indexOf(speakers.map((speaker, n) => record(`D${n + 1}:1`, speaker === 'Helen' ? 'Thank you all for the pottery voucher, so excited.' : 'Happy birthday Helen! Hope the birthday cake was good.', `2023-05-0${n + 1}T10:00:00Z`, speaker)));
    const rank = (index: UnitIndex, speakerLift?: number) =>
      index.search({ query: 'What present did Helen get for her birthday?', now: NOW, ...(speakerLift === undefined ? {} : { tuning: { speakerLift } }) }).ranked.findIndex((r) => r.unit.id === 'D4:1');
    const group = said(['Amy', 'Rob', 'Josh', 'Helen']);
    expect([rank(group), rank(group, 0)]).toEqual([0, 3]);
    const pair = said(['Owen', 'Helen', 'Owen', 'Helen']);
    expect(rank(pair)).toBe(rank(pair, 0));
  });

  it('brings in a unit that states the date the question names, even when no word matches', () => {
    const index = indexOf([
      recordUnit({ id: 'D4:3', sequence: 1, timestamp: '2026-07-27T10:00:00Z', role: 'user', content: 'Remind me to send the contract to the landlord by Friday.', metadata: { speaker: 'Noor' } }),
      record('D5:1', 'Something else entirely.', '2026-08-01T10:00:00Z', 'Noor'),
    ]);
    expect(index.search({ query: 'What did Noor need to do by 31 July 2026?', now: NOW }).ranked[0]!.unit.id).toBe('D4:3');
  });

  it('follows a name the best match brings up to a second unit (two hops)', () => {
    const index = indexOf([
      record('D5:7', 'My brother Rafael lives in Madrid.', '2023-03-01T10:00:00Z', 'Noor'),
      record('D18:3', 'Rafael works at Umbrella Labs now.', '2023-06-01T10:00:00Z', 'Noor'),
      // Distractors that match the question better than the second hop does, without the name.
      ...Array.from({ length: 30 }, (_, i) => record(`D${30 + i}:1`, `Work, more work: ${['budget', 'launch', 'audit'][i % 3]} ${i}.`, '2023-07-01T10:00:00Z', 'Noor')),
    ]);
    const top = index.search({ query: "Where does Noor's brother work?", now: NOW }).ranked.slice(0, 3).map((r) => r.unit.id);
    expect(top).toEqual(expect.arrayContaining(['D5:7', 'D18:3']));
  });

  it('discounts units with almost no content words, and returns only the kinds allowed', () => {
    expect(informationContent({ terms: 'hi' })).toBeLessThan(informationContent({ terms: 'support group lgbtq power talk' }));
    const index = indexOf([record('D1:1', 'My cat Clementine is allergic to fish.', NOW), withTerms(itemUnit('fact', { id: 'f1', statement: 'Rosa has a cat named Clementine', evidence: ['D1:1'], status: 'active', confidence: 0.9, sourceAt: NOW }))]);
    const { ranked } = index.search({ query: 'cat Clementine', now: NOW, allow: (unit) => unit.kind === 'fact' });
    expect(ranked.map((r) => r.unit.id)).toEqual(['f1']);
  });
});

describe('greetings carry no content', () => {
  it('reads a stretched greeting as a greeting, and a line of greetings as saying nothing', () => {
    expect(informationContent({ terms: 'heyyy' })).toBe(0);
    expect(informationContent({ terms: 'hiii yo' })).toBe(0);
    expect(informationContent({ terms: 'night' })).toBe(0);
    expect(informationContent({ terms: 'heyyy' }, false)).toBeGreaterThan(0);
    // A greeting beside something said keeps what was said.
    expect(informationContent({ terms: 'hey dentist tuesday' })).toBe(informationContent({ terms: 'dentist tuesday' }));
  });

  it("ranks what a person said about the subject above that person's hellos", () => {
    const index = indexOf([
      record('D1:1', 'heyyy how r u', '2023-03-01T10:00:00Z', 'Marisol'),
      record('D2:1', 'yo', '2023-03-08T10:00:00Z', 'Marisol'),
      record('D2:2', 'hiii', '2023-03-08T10:01:00Z', 'Marisol'),
      record('D2:5', 'Tomas passed his driving test on the second go', '2023-03-08T10:09:00Z', 'Marisol'),
    ]);
    const ids = index.search({ query: "How did Marisol's nephew get on?", now: NOW }).ranked.map((r) => r.unit.id);
    expect(ids).not.toContain('D1:1');
    expect(ids).not.toContain('D2:1');
    expect(ids).not.toContain('D2:2');
  });
});

describe('recall rendering', () => {
  const ranked = (units: IndexUnit[]) => units.map((unit, i) => ({ unit: withTerms(unit), score: 1 / (i + 1) }));

  it('stop 56: shows the two best-ranked records in up to 128 tokens from a block of 512, and cuts the rest to the sentences that match', () => {
    // A rambling turn of seven sentences, about 120 tokens, only one of which holds the question's word.
    const units = [
      record('D1:1', 'So the audition with the choir went fine in the end. My sister rang about the caravan again. The boiler man came round and left a mess. I found the old photo albums in the loft. We had pizza twice this week which is too much. The neighbours are building an extension and the noise is unreal. Anyway the dog is fine and sends love to everyone at home.', '2023-05-08T13:56:00Z'),
      record('D1:2', 'Work has been mad, three deadlines landed at once. The audition tape for the band finally got sent off on Friday. My knee is still playing up after the hike. Dad wants to repaint the shed purple, no idea why. I have started reading that crime novel you lent me. The train strike wrecked my Thursday completely. Our cat brought in a frog and it hopped under the sofa.', '2023-05-09T13:56:00Z'),
      record('D1:3', 'Big news from the orchestra: the audition panel want me back for a second round. The allotment is full of slugs this year. I tried baking sourdough and it came out like a brick. Mum is off to Lisbon with her walking group next month. The car needs new tyres before the MOT. I keep meaning to ring the dentist. Our parrot has learned to copy the microwave beep.', '2023-05-10T13:56:00Z'),
    ];
    const rendered = renderRecall(snapshot, ranked(units), { maxTokens: 2000, countTokens, terms: ['audit'] });
    const lineOf = (id: string) => rendered.markdown.split('\n').find((line) => line.includes(id))!;
    expect(lineOf('D1:1')).toContain('sends love to everyone at home');
    expect(lineOf('D1:2')).toContain('brought in a frog');
    // The third is cut to what matches the question, within 64 tokens.
    expect(lineOf('D1:3')).toContain('audition panel');
    expect(lineOf('D1:3')).not.toContain('copy the microwave beep');
    // Not in a small block, where two long lines would be most of it.
    const small = renderRecall(snapshot, ranked(units), { maxTokens: 256, countTokens, terms: ['audit'] });
    expect(small.markdown).not.toContain('sends love to everyone at home');
    // With the packing of stop 55 every line is cut.
    const cut = renderRecall(snapshot, ranked(units), { maxTokens: 2000, countTokens, terms: ['audit'], packing: { fullLines: 0 } });
    expect(cut.markdown).not.toContain('sends love to everyone at home');
    expect(cut.markdown).not.toContain('brought in a frog');
  });

  it('stop 56: carries a change read on one line to every line said before it that states the same old value', () => {
    const units = [
      record('S1:1', 'Seconds mugs at £12 each, bowls by size.', '2026-08-20T10:00:00Z', 'Tobias'),
      record('S1:2', '£12 is giving them away, honestly. They are still our mugs and people will pay more.', '2026-08-21T10:00:00Z', 'Maren'),
      record('S1:4', 'Parking in town was £12 for the day, daylight robbery.', '2026-08-22T10:00:00Z', 'Maren'),
      record('S2:1', 'Seconds mugs are £16 now, we agreed it last night.', '2026-09-01T10:00:00Z', 'Tobias'),
      record('S2:2', 'Ashcombe are back-ordered, so I switched the clay order from Ashcombe Clay to Bellstone Ceramics.', '2026-09-02T10:00:00Z', 'Tobias'),
      itemUnit('task', { id: 't1', title: 'Order 10 bags of buff stoneware from Ashcombe Clay', owner: 'Tobias', state: 'open', evidence: ['S1:3'], status: 'active', verification: 'unverified', confidence: 0.7, sourceAt: '2026-08-22T10:00:00Z' }),
    ];
    const rendered = renderRecall(snapshot, ranked(units), { maxTokens: 2000, countTokens, terms: [] });
    const lineOf = (text: string) => rendered.markdown.split('\n').find((line) => line.includes(text))!;
    // Read where the change's words are said near the old value, and carried to a line that says it further off.
    expect(lineOf('Seconds mugs at £12')).toContain('(later: £16)');
    expect(lineOf('giving them away')).toContain('(later: £16)');
    // An open task that names the replaced supplier says what replaced it.
    expect(lineOf('Order 10 bags')).toContain('(later: Bellstone Ceramics)');
    // The change's own line is not marked, nor the same amount said of something else.
    expect(lineOf('are £16 now')).not.toContain('(later:');
    expect(lineOf('Parking in town')).not.toContain('(later:');
  });

  it('marks an item never confirmed as unverified, and ranks a verified twin above it', () => {
    const fact = (id: string, verification: string) => itemUnit('fact', { id, statement: 'Rosa works night shifts at the clinic', evidence: ['D1:1'], status: 'active', verification, confidence: 0.7, sourceAt: NOW });
    const index = indexOf([fact('f1', 'unverified'), fact('f2', 'verified')]);
    const found = index.search({ query: 'night shifts clinic', now: NOW });
    expect(found.ranked.map((r) => r.unit.id)).toEqual(['f2', 'f1']);

    const rendered = renderRecall(snapshot, ranked([fact('f2', 'verified'), itemUnit('fact', { id: 'f3', statement: 'Rosa prefers tea', evidence: ['D2:1'], status: 'active', verification: 'unverified', confidence: 0.7, sourceAt: NOW })]), { maxTokens: 1000, countTokens, terms: [] });
    expect(rendered.markdown).toContain('- [2023-09-01 · D1:1] Rosa works night shifts at the clinic');
    expect(rendered.markdown).toContain('- [2023-09-01 · D2:1] (unverified) Rosa prefers tea');
  });

  it('cites every line: a record its id, date and speaker; an item its evidence; a summary its range and relevant sources', () => {
    const units = [
      record('D3:5', 'I went to the LGBTQ support group yesterday.', '2023-05-08T13:56:00Z'),
      itemUnit('fact', { id: 'f1', statement: 'Caroline attends a support group', evidence: ['D3:5', 'D7:1'], status: 'active', confidence: 0.9, sourceAt: '2023-05-08T13:56:00Z' }),
      summaryUnit({ id: 'time:0:19485', ladder: 'time', level: 0, from: '2023-05-08', to: '2023-05-08', text: 'Caroline went to a support group.', sources: ['D3:1', 'D3:5'], children: [], empty: false })!,
    ];
    const rendered = renderRecall(snapshot, ranked(units), { maxTokens: 1000, countTokens, terms: ['support'] });
    // Records sit under one line per date, each with its id and speaker.
    expect(rendered.markdown).toContain('2023-05-08:\n- D3:5 Caroline: I went to the LGBTQ support group yesterday (2023-05-07).');
    expect(rendered.markdown).toContain('- [2023-05-08 · D3:5, D7:1] Caroline attends a support group');
    expect(rendered.markdown).toContain('- [day 2023-05-08 · D3:5] Caroline went to a support group.');
    expect(rendered.markdown).toMatch(/^## Memory \(historical; .*current instructions and fresh tool results take precedence\)\n/);
    expect(rendered.included.map((i) => [i.id, i.kind])).toEqual([['D3:5', 'record'], ['f1', 'fact'], ['time:0:19485', 'summary']]);
  });

  it('reads a summary with a line citing nothing as a run, and shows none of its lines that a record shown says', () => {
    // A week above a day that was stored without its ids: one line cites nothing.
    const week = summaryUnit({ id: 'time:1:2800', ladder: 'time', level: 1, from: '2023-05-08', to: '2023-05-14', text: '2023-05-08 [D3:5]: I went to the LGBTQ support group yesterday.\n2023-05-09: The support group meets on Mondays now.', sources: [], children: ['time:0:19485'], empty: false })!;
    expect(week.cites).toBe(true);
    const units = [record('D3:5', 'I went to the LGBTQ support group yesterday.', '2023-05-08T13:56:00Z'), record('D4:2', 'The support group meets on Mondays now.', '2023-05-09T10:00:00Z'), week];
    const rendered = renderRecall(snapshot, ranked(units), { maxTokens: 1000, countTokens, terms: ['support', 'group'] });
    // Both records are shown; the week's two lines say nothing they do not, so it is left out.
    expect(rendered.markdown).toContain('- D3:5 Caroline: I went to the LGBTQ support group yesterday (2023-05-07).');
    expect(rendered.markdown).toContain('- D4:2 Caroline: The support group meets on Mondays now.');
    expect(rendered.markdown).not.toContain('week 2023-05-08');
    // With the records not ranked, the week shows both lines, each with its mark.
    const alone = renderRecall(snapshot, ranked([week]), { maxTokens: 1000, countTokens, terms: ['support', 'group'] });
    expect(alone.markdown).toContain('2023-05-08 [D3:5] I went to the LGBTQ support group yesterday. 2023-05-09: The support group meets on Mondays now.');
  });

  it('leaves out the sentences of a record that only react, and keeps a record that is nothing else whole', () => {
    const units = [
      record('D4:11', 'JOSHHHH!!! So proud of you, Caroline! They rang this afternoon: data analyst at Fernway, starting 15th May.', '2023-05-08T13:56:00Z'),
      record('D4:12', 'Wow. Amazing!!', '2023-05-08T13:57:00Z'),
      record('D4:13', 'Thanks mum, I start in May and the pay is better.', '2023-05-08T13:58:00Z', 'Josh'),
    ];
    const rendered = renderRecall(snapshot, ranked(units), { maxTokens: 1000, countTokens, terms: [] });
    expect(rendered.markdown).toContain('- D4:11 Caroline: They rang this afternoon: data analyst at Fernway, starting 15th May (2023-05-15).');
    expect(rendered.markdown).toContain('- D4:12 Caroline: Wow. Amazing!!');
    const kept = renderRecall(snapshot, ranked(units), { maxTokens: 1000, countTokens, terms: [], packing: { dropFiller: false } });
    expect(kept.markdown).toContain('JOSHHHH!!! So proud of you, Caroline!');
  });

  it('keeps a sentence that is a value alone ("hello@hornets.club.", "07700 900123."): no word of it is an index term', () => {
    const units = [record('D5:1', "We've got our own website now so we've got a proper email now. hello@hornets.club. Ha!! Coach's new mobile: 07700 900123.", '2023-05-09T13:56:00Z')];
    const rendered = renderRecall(snapshot, ranked(units), { maxTokens: 1000, countTokens, terms: [] });
    expect(rendered.markdown).toContain('proper email now. hello@hornets.club.');
    expect(rendered.markdown).toContain('07700 900123.');
    expect(rendered.markdown).not.toContain('Ha!!');
  });

  it('leaves out a contact known by name alone, and a contact’s quoted "Lately": the records say as much', () => {
    const contact = (id: string, name: string, biography: string, role?: string) =>
      itemUnit('contact', { id, name, role, biography, summary: `2023-05-08: ${name} came round for dinner.`, evidence: ['D4:2'], status: 'active', confidence: 0.8, lastMentionedAt: NOW });
    const units = [contact('c1', 'Mel', 'Mel. First mentioned 2023-05-01.'), contact('c2', 'Rosa', 'Rosa: nurse. The user\u2019s sister.', 'nurse'), contact('c3', 'Eileen', 'Eileen. Comes up with: party, bridge.')];
    const rendered = renderRecall(snapshot, ranked(units), { maxTokens: 1000, countTokens, terms: [] });
    expect(rendered.markdown).not.toContain('**Mel**');
    expect(rendered.markdown).not.toContain('**Eileen**');
    expect(rendered.markdown).toContain('**Rosa**: nurse. The user\u2019s sister.');
    expect(rendered.markdown).not.toContain('came round for dinner');
    const all = renderRecall(snapshot, ranked(units), { maxTokens: 1000, countTokens, terms: [], packing: { dropBareContacts: false, contactLately: true } });
    expect(all.markdown).toContain('**Mel**: First mentioned 2023-05-01. Lately: 2023-05-08: Mel came round for dinner.');
  });

  it('lets a summary whose lines cite their records print those ids in its text, and nothing else', () => {
    const text = '2023-05-08 [D3:2]: Caroline went to the support group.\n2023-05-08 [D3:6]: Melanie signed up for a pottery class.';
    const day = summaryUnit({ id: 'time:0:19485', ladder: 'time', level: 0, from: '2023-05-08', to: '2023-05-08', text, sources: ['D3:1', 'D3:2', 'D3:6'], children: [], empty: false })!;
    const rendered = renderRecall(snapshot, ranked([day, record('D3:1', 'Hey Mel, how was your weekend?', '2023-05-08T13:50:00Z')]), { maxTokens: 1000, countTokens, terms: [] });
    expect(rendered.markdown).toContain('- [day 2023-05-08] [D3:2] Caroline went to the support group. [D3:6] Melanie signed up for a pottery class.');
    expect(withTerms(day).terms).not.toMatch(/d3/);
  });

  it('shows only the lines of a cited summary that share a word with the question, when any does', () => {
    const text = '2023-05-08 [D3:2]: Caroline went to the support group.\n2023-05-08 [D3:6]: Melanie signed up for a pottery class.';
    const day = summaryUnit({ id: 'time:0:19485', ladder: 'time', level: 0, from: '2023-05-08', to: '2023-05-08', text, sources: ['D3:2', 'D3:6'], children: [], empty: false })!;
    const asked = renderRecall(snapshot, ranked([day]), { maxTokens: 1000, countTokens, terms: ['potteri'] });
    expect(asked.markdown).toContain('- [day 2023-05-08] [D3:6] Melanie signed up for a pottery class.');
    expect(asked.markdown).not.toContain('support group');
    // The speaker a line opens with is not a word it shares: a question naming her matches what is said of her.
    const spoken = summaryUnit({ id: 'time:0:19486', ladder: 'time', level: 0, from: '2023-05-08', to: '2023-05-08', text: '2023-05-08 [D3:2]: Caroline: I went to the support group.\n2023-05-08 [D3:6]: Melanie: Caroline talked me into a pottery class.', sources: ['D3:2', 'D3:6'], children: [], empty: false })!;
    const named = renderRecall(snapshot, ranked([spoken]), { maxTokens: 1000, countTokens, terms: ['carolin'] });
    expect(named.markdown).toContain('[D3:6] Melanie: Caroline talked me into a pottery class.');
    expect(named.markdown).not.toContain('support group');
    // No line shares a word (a match by meaning alone): the summary is shown whole.
    const byMeaning = renderRecall(snapshot, ranked([day]), { maxTokens: 1000, countTokens, terms: ['ceram'] });
    expect(byMeaning.markdown).toContain('[D3:2] Caroline went to the support group. [D3:6] Melanie signed up for a pottery class.');
  });

  it('leaves out a fact that quotes a record already shown, and keeps one that says something of its own', () => {
    const quoted = itemUnit('fact', { id: 'f1', statement: 'my neighbour is learning the trumpet', evidence: ['D2:4'], status: 'active', confidence: 0.7, sourceAt: NOW });
    const own = itemUnit('fact', { id: 'f2', statement: 'Rosa works night shifts at the clinic', evidence: ['D2:4'], status: 'active', confidence: 0.7, sourceAt: NOW });
    const said = record('D2:4', 'ugh, my neighbour is learning the trumpet. Rosa works nights too.', '2023-05-08T13:55:00Z');
    const rendered = renderRecall(snapshot, ranked([said, quoted, own]), { maxTokens: 1000, countTokens, terms: [] });
    expect(rendered.markdown.match(/learning the trumpet/g)).toHaveLength(1);
    expect(rendered.markdown).toContain('Rosa works night shifts at the clinic');
  });

  it('shows a fact that quotes a record saying nothing else in the current state, in place of the record line', () => {
    const fact = itemUnit('fact', { id: 'f1', statement: 'My locker at the pool is 41', evidence: ['D2:4'], status: 'active', confidence: 0.7, sourceAt: NOW });
    const said = record('D2:4', 'My locker at the pool is 41, fyi.', '2023-05-08T13:55:00Z');
    const rendered = renderRecall(snapshot, ranked([said, fact]), { maxTokens: 1000, countTokens, terms: [] });
    expect(rendered.markdown).toMatch(/### Facts\n- \[\d{4}-\d{2}-\d{2} · D2:4\] My locker at the pool is 41$/);
    expect(rendered.markdown).not.toContain('### Summaries and records');
    expect(rendered.markdown.match(/locker at the pool/g)).toHaveLength(1);
    expect(rendered.included.map((i) => i.id)).toEqual(['f1']);
  });

  it('leaves out a cited summary whose lines that share a word with the question are already shown: its other lines are about something else', () => {
    const text = '2023-05-08 [D3:2]: Caroline went to the support group.\n2023-05-08 [D3:6]: Melanie signed up for a pottery class.';
    const day = summaryUnit({ id: 'time:0:19485', ladder: 'time', level: 0, from: '2023-05-08', to: '2023-05-08', text, sources: ['D3:2', 'D3:6'], children: [], empty: false })!;
    const pottery = record('D3:6', 'Melanie signed up for a pottery class.', '2023-05-08T13:55:00Z');
    const rendered = renderRecall(snapshot, ranked([pottery, day]), { maxTokens: 1000, countTokens, terms: ['potteri'] });
    expect(rendered.markdown).toContain('- D3:6 Caroline: Melanie signed up for a pottery class.');
    expect(rendered.markdown).not.toContain('support group');
    expect(rendered.included.map((i) => i.id)).toEqual(['D3:6']);
  });

  it('shows the words of a record once: never as its own line beside a summary line that cites it, nor again in a later summary', () => {
    const day = (id: string, text: string) => summaryUnit({ id, ladder: 'time', level: 0, from: '2023-05-08', to: '2023-05-08', text, sources: ['D3:2', 'D3:6'], children: [], empty: false })!;
    const summary = day('time:0:19485', '2023-05-08 [D3:2]: Caroline went to the support group.\n2023-05-08 [D3:6]: Melanie signed up for a pottery class.');
    const supportGroup = record('D3:2', 'Caroline went to the support group.', '2023-05-08T13:50:00Z');
    // The summary first: the record it shows is not shown again.
    const first = renderRecall(snapshot, ranked([summary, supportGroup]), { maxTokens: 1000, countTokens, terms: [] });
    expect(first.markdown.match(/support group/g)).toHaveLength(1);
    expect(first.markdown).not.toContain('- D3:2 Caroline:');
    // The record first: the summary shows only its other line.
    const second = renderRecall(snapshot, ranked([supportGroup, summary]), { maxTokens: 1000, countTokens, terms: [] });
    expect(second.markdown).toContain('- [day 2023-05-08] [D3:6] Melanie signed up for a pottery class.');
    expect(second.markdown.match(/support group/g)).toHaveLength(1);
    // A summary whose every line is already shown adds nothing.
    const third = renderRecall(snapshot, ranked([supportGroup, record('D3:6', 'Melanie signed up for a pottery class.', '2023-05-08T13:55:00Z'), summary]), { maxTokens: 1000, countTokens, terms: [] });
    expect(third.markdown).not.toContain('[day 2023-05-08]');
  });

  it('fits the budget by the real tokenizer', () => {
    const units = Array.from({ length: 200 }, (_, i) => record(`D${i}:1`, `Turn number ${i} about gardening and tomatoes in the greenhouse.`, `2023-05-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00Z`));
    for (const maxTokens of [150, 400, 1024]) {
      const rendered = renderRecall(snapshot, ranked(units), { maxTokens, countTokens, terms: [] });
      expect(countTokens(rendered.markdown)).toBe(rendered.tokens);
      expect(rendered.tokens).toBeLessThanOrEqual(maxTokens);
      expect(rendered.included.length).toBeGreaterThan(0);
    }
  });

  it('collapses near-duplicates into one line with all their ids', () => {
    const units = [record('D1:1', 'Long day at work today.', '2023-05-01T10:00:00Z'), record('D2:1', 'Long day at work today!', '2023-05-02T10:00:00Z'), record('D3:1', 'The garden is full of tomatoes.', '2023-05-03T10:00:00Z')];
    const rendered = renderRecall(snapshot, ranked(units), { maxTokens: 1000, countTokens, terms: [] });
    expect(rendered.markdown).toContain('2023-05-01:\n- D1:1, D2:1 Caroline: Long day at work today.');
    expect(rendered.markdown.match(/Long day/g)).toHaveLength(1);
    expect(rendered.included.map((i) => i.id).sort()).toEqual(['D1:1', 'D2:1', 'D3:1']);
  });

  it('takes the best units by score, several of one session included, and discounts a session only when asked to', () => {
    const units = [
      record('D1:1', 'We hiked the ridge trail.', '2023-05-01T10:00:00Z', 'Caroline', 's1'),
      record('D1:2', 'The ridge trail views were great.', '2023-05-01T10:01:00Z', 'Caroline', 's1'),
      record('D1:3', 'Hiking the ridge trail took hours.', '2023-05-01T10:02:00Z', 'Caroline', 's1'),
      record('D7:1', 'We hiked a canyon trail.', '2023-07-01T10:00:00Z', 'Caroline', 's7'),
    ];
    const scores = [1, 0.95, 0.9, 0.7];
    const all = units.map((u, i) => ({ unit: withTerms(u), score: scores[i]! }));
    // A budget that holds exactly two of these lines.
    // Each record on a line of its own, dated, so every line costs the same whatever its neighbours (date grouping is tested below).
    const packing = { groupByDate: false };
    const two = renderRecall(snapshot, [all[0]!, all[3]!], { maxTokens: 1000, countTokens, terms: [], packing }).tokens;
    // (line costs are estimated one by one, a token or two above the joined text)
    // By score: a session's adjacent turns often hold an answer together (measured in docs/BENCHMARKS.md).
    expect(renderRecall(snapshot, all, { maxTokens: two + 3, countTokens, terms: [], packing }).included.map((i) => i.id)).toEqual(['D1:1', 'D1:2']);
    const diverse = renderRecall(snapshot, all, { maxTokens: two + 3, countTokens, terms: [], packing: { ...packing, sessionDecay: 0.7 } });
    expect(diverse.included.map((i) => i.id)).toEqual(['D1:1', 'D7:1']);
  });

  it('puts records of one date under one date line, which holds more records in a budget than a date on every line', () => {
    const units = Array.from({ length: 60 }, (_, i) => record(`D${Math.floor(i / 10)}:${i}`, `We talked about the garden plan number ${i}.`, `2023-05-0${1 + Math.floor(i / 10)}T10:${String(i).padStart(2, '0')}:00Z`));
    const grouped = renderRecall(snapshot, ranked(units), { maxTokens: 600, countTokens, terms: [] });
    const dated = renderRecall(snapshot, ranked(units), { maxTokens: 600, countTokens, terms: [], packing: { groupByDate: false } });
    expect(grouped.markdown).toMatch(/\n2023-05-01:\n- D0:0 Caroline: We talked/);
    expect(grouped.included.length).toBeGreaterThan(dated.included.length);
    expect(grouped.tokens).toBeLessThanOrEqual(600);
  });

  it('cuts a long record to the sentences that hold the query terms, marking the cuts', () => {
    const filler = Array.from({ length: 12 }, (_, i) => `Sentence ${i} talks about nothing much at all today.`).join(' ');
    const text = `${filler} My cat Clementine is allergic to fish. ${filler}`;
    const cut = cutToRelevant(text, indexTerms('Clementine allergic'), 40, countTokens);
    expect(cut).toContain('My cat Clementine is allergic to fish.');
    expect(cut).toContain('…');
    expect(countTokens(cut)).toBeLessThanOrEqual(45);
  });
});
