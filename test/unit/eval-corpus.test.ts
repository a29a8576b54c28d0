import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CorpusError, parseCorpus, parseSessionDate, turnEvent } from '../../scripts/eval/corpus.js';
import { parseIngestRequest } from '../../functions/domain/events.js';
import { syntheticCorpus } from '../../scripts/corpus/synthetic-corpus.js';

const fixture = JSON.parse(readFileSync(new URL('../fixtures/locomo-style.json', import.meta.url), 'utf8'));

describe('LoCoMo-format corpus', () => {
  it('reads session times as LoCoMo writes them, and ISO date-times', () => {
    expect(parseSessionDate('1:56 pm on 8 May, 2023')).toBe('2023-05-08T13:56:00.000Z');
    expect(parseSessionDate('12:05 am on 1 January, 2024')).toBe('2024-01-01T00:05:00.000Z');
    expect(parseSessionDate('12:30 pm on 31 Dec, 2022')).toBe('2022-12-31T12:30:00.000Z');
    expect(parseSessionDate('2023-05-08T13:56:00+02:00')).toBe('2023-05-08T11:56:00.000Z');
    expect(parseSessionDate('2023-05-08T13:56:00')).toBe('2023-05-08T13:56:00.000Z');
    expect(parseSessionDate('9:15 am on 4 Sept, 2023')).toBe('2023-09-04T09:15:00.000Z');
    expect(parseSessionDate('9:00 am on 31 February, 2023')).toBeUndefined();
    expect(parseSessionDate('9:00 am on 3 Ma, 2023')).toBeUndefined();
    expect(parseSessionDate('yesterday')).toBeUndefined();
  });

  it('turns a published-style sample into timestamped turns and questions', () => {
    const [sample] = parseCorpus(fixture);
    expect(sample!.id).toBe('conv-test-1');
    expect(sample!.speakers).toEqual(['Rosa', 'Ivan']);
    expect(sample!.turns.map((t) => t.id)).toEqual(['D1:1', 'D1:2', 'D1:3', 'D1:4', 'D2:1', 'D2:2', 'D2:3', 'D2:3#2', 'D3:1', 'D3:2']);
    // Turns are 30 s apart from the session's time; a photo's caption is part of the turn.
    expect(sample!.turns[1]!.at).toBe('2023-03-03T16:05:30.000Z');
    expect(sample!.turns[2]!.text).toContain('[shares a photo: a photo of an orange cat on a sofa]');
    const questions = sample!.questions;
    expect(questions.map((q) => q.category)).toEqual(['single-hop', 'temporal', 'multi-hop', 'single-hop', 'adversarial', 'single-hop']);
    // "D2:1; D2:3" in one string is two evidence turns; an id naming no turn is dropped.
    expect(questions[2]!.evidence).toEqual(['D2:1', 'D2:3']);
    expect(questions[5]!.evidence).toEqual(['D1:3']);
    expect(questions[3]!.answer).toBe('52');
    expect(questions[4]!.answer).toBeUndefined();
  });

  it('posts two people as users with their names in the content; a mapped assistant without', () => {
    const [sample] = parseCorpus(fixture);
    const event = turnEvent(sample!.turns[0]!);
    expect(event).toMatchObject({ id: 'D1:1', role: 'user', content: 'Rosa: Hi Ivan! I finally adopted a cat last weekend, her name is Clementine.', interactionId: 'session-1', metadata: { speaker: 'Rosa' } });
    // Every turn is a valid ingest event.
    expect(() => parseIngestRequest({ events: sample!.turns.map(turnEvent) })).not.toThrow();

    const [synthetic] = parseCorpus(syntheticCorpus({ samples: 1, months: 1 }));
    const assistant = synthetic!.turns.find((t) => t.role === 'assistant')!;
    const user = synthetic!.turns.find((t) => t.role === 'user')!;
    expect(turnEvent(assistant).content).toBe(assistant.text);
    expect(turnEvent(user).content).toBe(user.text);
  });

  it('names the sample, field and rule when the corpus is malformed', () => {
    expect(() => parseCorpus([])).toThrow(CorpusError);
    expect(() => parseCorpus([{ qa: [] }])).toThrow(/sample 0: conversation/);
    expect(() => parseCorpus([{ conversation: { speaker_a: 'A', speaker_b: 'B' } }])).toThrow(/no session_N lists/);
    expect(() => parseCorpus([{ conversation: { speaker_a: 'A', speaker_b: 'B', session_1: [], session_1_date_time: 'soon' } }])).toThrow(/session_1_date_time "soon" must be like/);
    expect(() => parseCorpus([{ conversation: { speaker_a: 'A', speaker_b: 'B', session_1: [{ speaker: 'A', text: 'hi' }], session_1_date_time: '1:00 pm on 1 May, 2023' } }])).toThrow(/session_1\.0\.dia_id/);
    expect(() => parseCorpus([{ conversation: { speaker_a: 'A', speaker_b: 'B', session_1: [{ speaker: 'A', dia_id: 'D 1', text: 'hi' }], session_1_date_time: '1:00 pm on 1 May, 2023' } }])).toThrow(/printable ASCII/);
  });
});
