/**
 * The extraction benchmark's matching rules (docs/design/extraction.md), and
 * the local model held to the benchmark's goal on every corpus.
 */
import { describe, expect, it } from 'vitest';
import { LocalModel } from '../../functions/adapters/models/local/local-model.js';
import type { ContactItem, FactItem, MemoryItem, TaskItem } from '../../functions/domain/memory.js';
import { runExtractionBenchmark } from '../../scripts/bench/extract.js';
import { attributeMatches, f1, normaliseName, resolvePerson, scoreMemory, titleMatches, valueMatches } from '../../scripts/bench/extract-scoring.js';
import { extractionCorpora } from '../../scripts/corpus/extract/index.js';
import type { ExpectedTruth } from '../../scripts/corpus/extract/types.js';

const base = { scope: { tenantId: 't', agentId: 'a' }, status: 'active', verification: 'unverified', confidence: 0.7, hitCount: 1, createdAt: '', updatedAt: '', lastReinforcedAt: '', evidence: [], history: [] } as const;
const contact = (name: string, extra: Partial<ContactItem> = {}): ContactItem => ({ ...base, id: name, kind: 'contact', name, aliases: [], relationships: [], preferences: [], channels: [], biography: '', summary: '', lastMentionedAt: '', ...extra });
const fact = (row: Record<string, string | null>, table = 'profile', extra: Partial<FactItem> = {}): FactItem => ({ ...base, id: JSON.stringify(row), kind: 'fact', table, row, statement: '', ...extra });
const task = (title: string, state: TaskItem['state']): TaskItem => ({ ...base, id: title, kind: 'task', title, owner: 'user', state });

const truth: ExpectedTruth = {
  contacts: [{ name: 'Zoë Brandt', aliases: ['Zoë'], organisation: 'Bristol Royal Infirmary', role: 'nurse', history: [] }],
  facts: [
    { subject: 'zoe', attribute: 'lives in', value: 'Bristol' },
    { subject: 'concert', attribute: 'date', value: '2026-04-06' },
  ],
  tasks: [{ title: 'send the hike photos to Zoë', state: 'done' }],
  people: { zoe: ['zoe', 'Zoë Brandt', 'Zoë'], user: ['user'] },
};

describe('matching rules', () => {
  it('folds case, diacritics, either Unicode form and titles in names', () => {
    expect(normaliseName('Zoe\u0308 BRANDT')).toBe(normaliseName('Zoë Brandt'));
    expect(normaliseName('Dr. Weiss')).toBe('weiss');
    expect(resolvePerson(truth, 'Zoe')).toBe('zoe');
    expect(resolvePerson(truth, 'Kai')).toBeUndefined();
  });

  it('compares values tolerantly: containment, corporate suffixes, and dates however written', () => {
    expect(valueMatches('Brightwell Inc.', 'Brightwell')).toBe(true);
    expect(valueMatches('June 14', '2026-06-14')).toBe(true);
    expect(valueMatches('June 14', 'the 14th of June')).toBe(true);
    expect(valueMatches('June 14', 'June 12')).toBe(false);
    expect(valueMatches('Lyon', 'Lisbon')).toBe(false);
  });

  it('matches attributes by synonym group or shared word, not by anything', () => {
    expect(attributeMatches('lives in', 'home city')).toBe(true);
    expect(attributeMatches('allergy', 'allergic')).toBe(true);
    expect(attributeMatches('dentist', 'favourite restaurant')).toBe(false);
  });

  it('matches task titles by word overlap', () => {
    expect(titleMatches('send the contract to Priya', 'Send the contract to Priya by Friday')).toBe(true);
    expect(titleMatches('send the contract to Priya', 'Book a flight to Madrid')).toBe(false);
  });

  it('scores a perfect memory as 1 and counts each kind of miss', () => {
    const perfect: MemoryItem[] = [
      contact('Zoë Brandt', { organisation: 'Bristol Royal Infirmary', role: 'nurse' }),
      fact({ subject: 'Zoë', attribute: 'home city', value: 'Bristol' }),
      fact({ subject: 'concert', attribute: 'date', value: '2026-04-06' }),
      task('Send the hike photos to Zoë', 'done'),
    ];
    const scores = scoreMemory(truth, perfect);
    expect([f1(scores.contacts), f1(scores.facts), f1(scores.tasks)]).toEqual([1, 1, 1]);

    const flawed = scoreMemory(truth, [
      contact('Zoe Brandt', { organisation: "St. Mary's Hospital", role: 'nurse' }),
      contact('Madrid'),
      fact({ subject: 'user', attribute: 'home city', value: 'Bristol' }),
      fact({ subject: 'concert', attribute: 'date', value: '2026-04-06' }, 'profile', { status: 'archived' }),
      task('Send the hike photos to Zoë', 'open'),
    ]);
    expect(flawed.contacts).toEqual({ tp: 2, fp: 2, fn: 1 });
    expect(flawed.facts).toEqual({ tp: 0, fp: 1, fn: 2 });
    expect(flawed.tasks).toEqual({ tp: 0, fp: 1, fn: 1 });
  });
});

describe('the local model on the extraction benchmark', () => {
  it('reaches F1 >= 0.85 for contacts and tasks and >= 0.75 for facts on every corpus', async () => {
    const results = await runExtractionBenchmark(new LocalModel(), extractionCorpora());
    for (const { corpus, scores } of results) {
      expect({ corpus: corpus.name, contacts: f1(scores.contacts) >= 0.85, facts: f1(scores.facts) >= 0.75, tasks: f1(scores.tasks) >= 0.85 }).toEqual({ corpus: corpus.name, contacts: true, facts: true, tasks: true });
    }
  }, 120_000);
});
