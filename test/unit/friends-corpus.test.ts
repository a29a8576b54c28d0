import { describe, expect, it } from 'vitest';
import { MONTH_NAMES } from '../../scripts/corpus/calendar.js';
import { friendsCorpus } from '../../scripts/corpus/friends-chat.js';
import { parseCorpus, parseSessionDate } from '../../scripts/eval/corpus.js';
import { loadCorpus } from '../../scripts/eval/run.js';
import { answerContained } from '../../scripts/eval/metrics.js';

interface RawTurn { speaker: string; dia_id: string; text: string; img_url?: string[]; blip_caption?: string }

const raw = friendsCorpus({ samples: 3, months: 4 });
const samples = parseCorpus(raw);
const DAY = 86_400_000;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const dayOf = (iso: string) => Date.parse(iso.slice(0, 10));
const writtenDay = (text: string) => {
  const match = /(\d{1,2}) ([A-Z][a-z]+) (\d{4})/.exec(text)!;
  return Date.UTC(Number(match[3]), MONTH_NAMES.indexOf(match[2] as (typeof MONTH_NAMES)[number]), Number(match[1]));
};

describe('friends chat corpus', () => {
  it('is the same on every run for a seed, and different for another seed', () => {
    expect(friendsCorpus({ samples: 3, months: 4 })).toEqual(raw);
    expect(friendsCorpus({ samples: 3, months: 4, seed: 24 })).not.toEqual(raw);
  });

  it('is LoCoMo-format chat between two people over the months asked for, with photos as captions', () => {
    for (const [k, sample] of samples.entries()) {
      expect(sample.speakers[0]).not.toBe(sample.speakers[1]);
      // Two people, no assistant: both post as users, with their names in the content.
      expect(sample.turns.every((t) => t.role === 'user' && t.named)).toBe(true);
      expect(new Set(sample.turns.map((t) => t.speaker))).toEqual(new Set(sample.speakers));
      const days = (dayOf(sample.turns.at(-1)!.at) - dayOf(sample.turns[0]!.at)) / DAY;
      expect(days).toBeGreaterThan(100);
      expect(days).toBeLessThan(125);
      expect(new Set(sample.turns.map((t) => t.session)).size).toBeGreaterThanOrEqual(15);
      const conversation = raw[k]!.conversation;
      const photos = Object.entries(conversation).filter(([key]) => /^session_\d+$/.test(key)).flatMap(([, turns]) => (turns as RawTurn[]).filter((t) => t.blip_caption));
      expect(photos.length).toBeGreaterThanOrEqual(3);
      for (const photo of photos) expect(photo.img_url).toHaveLength(1);
      expect(sample.turns.some((t) => t.text.includes('[shares a photo: a photo of'))).toBe(true);
    }
    // LoCoMo's numeric categories, all five.
    expect(new Set(raw.flatMap((s) => s.qa.map((q) => q.category)))).toEqual(new Set([1, 2, 3, 4, 5]));
    expect(new Set(samples.flatMap((s) => s.questions.map((q) => q.category)))).toEqual(new Set(['multi-hop', 'temporal', 'open-domain', 'single-hop', 'adversarial']));
  });

  it('is written casually: abbreviations, lower-case starts, small talk, relative dates', () => {
    const text = samples.flatMap((s) => s.turns.map((t) => t.text)).join('\n');
    expect(text).toMatch(/\b(u|r|lol|tbh|bc|prob|rly)\b/);
    expect(text).toMatch(/^[a-z]/m);
    expect(text).toMatch(/\b(yesterday|yday|last night|two days ago|2 days ago|the day before yesterday|last [A-Z][a-z]+day|on [A-Z][a-z]+day|last weekend|last week)\b/);
    expect(text).toMatch(/scarecrow|pineapple|raincoat|baking show|trumpet/);
  });

  it('has ground truth: every evidence id names a turn, and the answer is in the evidence unless it must be worked out', () => {
    for (const [k, sample] of raw.entries()) {
      const turns = new Map(Object.entries(sample.conversation).filter(([key]) => /^session_\d+$/.test(key)).flatMap(([, list]) => (list as RawTurn[]).map((t) => [t.dia_id, t] as const)));
      expect(sample.qa.length).toBeGreaterThanOrEqual(25);
      const parsed = samples[k]!;
      for (const qa of sample.qa) {
        expect(qa.evidence.length, qa.question).toBeGreaterThan(0);
        for (const id of qa.evidence) expect(turns.has(id), `${qa.question}: ${id}`).toBe(true);
        const evidenceText = qa.evidence.map((id) => `${turns.get(id)!.text} ${turns.get(id)!.blip_caption ?? ''}`).join(' ');
        // Single- and multi-hop answers are stated in the evidence; temporal ones are dates worked out from it,
        // open-domain ones need world knowledge (a city's country, "little bro" means younger).
        if (qa.category === 1 || qa.category === 4) expect(answerContained(qa.answer!, evidenceText), `${qa.question} -> ${qa.answer}`).toBe(true);
        if (qa.category === 5) {
          // Adversarial: asked of the friend it did not happen to; the evidence is the other's turn.
          expect(qa.answer).toBeUndefined();
          expect(answerContained(qa.adversarial_answer!, evidenceText)).toBe(true);
          const asked = [sample.conversation.speaker_a, sample.conversation.speaker_b].find((name) => qa.question.includes(name))!;
          expect(qa.evidence.every((id) => turns.get(id)!.speaker !== asked)).toBe(true);
        }
        for (const stale of qa.stale ?? []) expect(answerContained(stale, [...turns.values()].map((t) => t.text).join(' '))).toBe(true);
      }
      // The parser keeps every evidence id (none is dropped as unknown).
      expect(parsed.questions.map((q) => q.evidence)).toEqual(sample.qa.map((q) => q.evidence));
    }
  });

  it('asks in other words than the turns: no question is said in the conversation', () => {
    for (const sample of samples) {
      const text = sample.turns.map((t) => t.text.toLowerCase()).join('\n');
      for (const question of sample.questions) expect(text.includes(question.question.toLowerCase().replace(/\?$/, ''))).toBe(false);
    }
  });

  it('rests every multi-hop question on turns from two or more sessions', () => {
    for (const sample of samples) {
      const sessionOf = new Map(sample.turns.map((t) => [t.id, t.session]));
      const multiHop = sample.questions.filter((q) => q.category === 'multi-hop');
      expect(multiHop.length).toBeGreaterThanOrEqual(3);
      for (const question of multiHop) expect(new Set(question.evidence.map((id) => sessionOf.get(id))).size, question.question).toBeGreaterThanOrEqual(2);
    }
  });

  it('answers temporal questions with the date the turn states relative to its session', () => {
    let checked = 0;
    for (const sample of samples) {
      const byId = new Map(sample.turns.map((t) => [t.id, t]));
      for (const question of sample.questions.filter((q) => q.category === 'temporal')) {
        const turn = byId.get(question.evidence.at(-1)!)!;
        const said = dayOf(turn.at);
        const text = turn.text;
        const answer = question.answer!;
        checked += 1;
        const week = /^the (weekend|week) before (.+)$/.exec(answer);
        if (week) {
          // Relative to the session, as LoCoMo answers: the written date is the session's day.
          expect(writtenDay(week[2]!)).toBe(said);
          expect(text).toMatch(week[1] === 'weekend' ? /last weekend/ : /last week\b/);
          continue;
        }
        const back = (said - writtenDay(answer)) / DAY;
        const planned = /the (\d{1,2})(st|nd|rd|th)\b/.exec(text);
        if (/\b(two days ago|2 days ago|the day before yesterday)\b/.test(text)) expect(back).toBe(2);
        else if (/\b(yesterday|yday|last night)\b/.test(text)) expect(back).toBe(1);
        else if (/\b(last|on) ([A-Z][a-z]+day)\b/.test(text)) {
          const weekday = /\b(last|on) ([A-Z][a-z]+day)\b/.exec(text)![2]!;
          expect(WEEKDAYS[new Date(writtenDay(answer)).getUTCDay()]).toBe(weekday);
          expect(back).toBeGreaterThanOrEqual(2);
          expect(back).toBeLessThanOrEqual(6);
        } else if (planned) {
          // A plan ("the 21st"): the next such day of the month after the session.
          expect(new Date(writtenDay(answer)).getUTCDate()).toBe(Number(planned[1]));
          expect(-back).toBeGreaterThan(0);
          expect(-back).toBeLessThanOrEqual(31);
        } else throw new Error(`no date phrase in ${turn.id} "${text}" for ${question.question}`);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(15);
  });

  it('dates sessions as LoCoMo does, in time order', () => {
    for (const sample of raw) {
      const times = Object.keys(sample.conversation).filter((key) => /^session_\d+_date_time$/.test(key)).sort((a, b) => Number(a.split('_')[1]) - Number(b.split('_')[1])).map((key) => parseSessionDate(sample.conversation[key] as string)!);
      expect(times.every(Boolean)).toBe(true);
      expect([...times].sort()).toEqual(times);
    }
  });

  it('is what `npm run eval -- --corpus-style friends` replays, dated to end shortly before the run', () => {
    const loaded = loadCorpus({ style: 'friends', generated: { samples: 1, months: 2 } });
    expect(loaded.name).toBe('friends');
    expect(loaded.samples).toHaveLength(1);
    const daysBeforeNow = (Date.now() - Date.parse(loaded.samples[0]!.turns.at(-1)!.at)) / DAY;
    expect(daysBeforeNow).toBeGreaterThan(3);
    expect(daysBeforeNow).toBeLessThan(30);
    expect(loadCorpus({ style: 'synthetic', generated: { samples: 1, months: 1 } }).name).toBe('synthetic');
  });
});
