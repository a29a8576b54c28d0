import { describe, expect, it } from 'vitest';
import { recentStart, syntheticCorpus } from '../../scripts/corpus/synthetic-corpus.js';
import { parseCorpus } from '../../scripts/eval/corpus.js';
import { answerContained } from '../../scripts/eval/metrics.js';

describe('synthetic corpus', () => {
  const raw = syntheticCorpus({ samples: 3, months: 4 });
  const samples = parseCorpus(raw);

  it('is the same on every run for a seed, and different for another seed', () => {
    expect(syntheticCorpus({ samples: 3, months: 4 })).toEqual(raw);
    expect(syntheticCorpus({ samples: 3, months: 4, seed: 12 })).not.toEqual(raw);
  });

  it('spans the months asked for, two or three sessions a week, in time order', () => {
    for (const sample of samples) {
      const days = (Date.parse(sample.turns.at(-1)!.at) - Date.parse(sample.turns[0]!.at)) / 86_400_000;
      expect(days).toBeGreaterThan(100);
      expect(days).toBeLessThan(125);
      const sessions = new Set(sample.turns.map((t) => t.session)).size;
      expect(sessions).toBeGreaterThanOrEqual(2 * 17);
      expect(sessions).toBeLessThanOrEqual(3 * 17);
      expect([...sample.turns].sort((a, b) => a.at.localeCompare(b.at))).toEqual(sample.turns);
    }
  });

  it('has ground truth: every question cites turns that exist, and its answer is in them or derivable from them', () => {
    for (const sample of samples) {
      const byId = new Map(sample.turns.map((t) => [t.id, t]));
      expect(sample.questions.length).toBeGreaterThanOrEqual(20);
      for (const question of sample.questions) {
        expect(question.evidence.length).toBeGreaterThan(0);
        const text = question.evidence.map((id) => byId.get(id)!.text).join(' ');
        // Temporal answers are dates resolved from "yesterday", "last Tuesday" or "by Friday": not verbatim.
        if (question.category !== 'temporal') expect(answerContained(question.answer!, text), `${question.question} -> ${question.answer}`).toBe(true);
        for (const stale of question.stale) expect(answerContained(stale, sample.turns.map((t) => t.text).join(' '))).toBe(true);
      }
    }
  });

  it('covers the storylines the evaluation needs', () => {
    const categories = new Set(samples.flatMap((s) => s.questions.map((q) => q.category)));
    expect([...categories].sort()).toEqual(['multi-hop', 'single-hop', 'task', 'temporal', 'update']);
    const text = samples[0]!.turns.map((t) => t.text).join('\n');
    expect(text).toMatch(/just started a new job at/); // contacts change jobs
    expect(text).toMatch(/Actually it's floor \d, not \d/); // a fact corrected
    expect(text).toMatch(/Actually, I now live in \w+, not \w+/); // a fact corrected months later
    expect(text).toMatch(/Remind me to .+ by Friday/); // tasks opened
    expect(text).toMatch(/^(Yesterday|Two days ago|Last \w+day) I /m); // relative dates
    expect(text).toMatch(/The weather is grey again|haha yes|Long day at work/); // small talk
  });

  it('gives each task its own due date: the coming Friday, or next Friday when said on a Friday', () => {
    for (const sample of samples) {
      const byId = new Map(sample.turns.map((t) => [t.id, t]));
      const due = sample.questions.filter((q) => q.category === 'temporal' && q.question.includes('supposed to'));
      expect(new Set(due.map((q) => q.answer)).size).toBe(due.length);
      for (const question of due) {
        const turn = byId.get(question.evidence[0]!)!;
        const days = (Date.parse(`${question.answer} UTC`) - Date.parse(turn.at.slice(0, 10))) / 86_400_000;
        expect(new Date(`${question.answer} UTC`).getUTCDay()).toBe(5);
        if (turn.text.includes('by next Friday')) expect(days).toBe(7);
        else expect(days).toBeGreaterThanOrEqual(1);
        expect(days).toBeLessThanOrEqual(7);
      }
    }
  });

  it('resolves relative dates against the session day', () => {
    for (const sample of samples) {
      const byId = new Map(sample.turns.map((t) => [t.id, t]));
      for (const question of sample.questions.filter((q) => q.category === 'temporal' && q.question.startsWith('When did'))) {
        const turn = byId.get(question.evidence[0]!)!;
        const said = Date.parse(turn.at.slice(0, 10));
        const answer = Date.parse(`${question.answer} UTC`);
        const back = (said - answer) / 86_400_000;
        if (turn.text.startsWith('Yesterday')) expect(back).toBe(1);
        else if (turn.text.startsWith('Two days ago')) expect(back).toBe(2);
        else {
          expect(back).toBeGreaterThanOrEqual(1);
          expect(back).toBeLessThanOrEqual(7);
          expect(new Date(answer).toUTCString()).toContain(turn.text.slice(5, 8));
        }
      }
    }
  });

  it('can be dated to end shortly before a run, from a Monday, with the same conversations', () => {
    const now = new Date('2026-11-30T12:00:00Z');
    const start = recentStart(4, now);
    expect(new Date(`${start}T00:00:00Z`).getUTCDay()).toBe(1);
    const [recent] = parseCorpus(syntheticCorpus({ samples: 1, months: 4, start }));
    const daysBeforeNow = (now.getTime() - Date.parse(recent!.turns.at(-1)!.at)) / 86_400_000;
    expect(daysBeforeNow).toBeGreaterThan(7);
    expect(daysBeforeNow).toBeLessThan(30);
    expect(recent!.turns.map((t) => t.text)).toEqual(samples[0]!.turns.map((t) => t.text));
    expect(recent!.questions.map((q) => q.question.replace(/\d+ \w+ 20\d\d/, 'D'))).toEqual(samples[0]!.questions.map((q) => q.question.replace(/\d+ \w+ 20\d\d/, 'D')));
  });
});
