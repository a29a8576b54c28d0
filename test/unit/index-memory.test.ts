import { describe, expect, it } from 'vitest';
import type { AgentKey } from '../../functions/domain/agent-key.js';
import { keepSaid, MAX_SAID_IN_MANIFEST, type IndexManifest, type IndexSegment } from '../../functions/domain/index-segment.js';
import { renderContext } from '../../functions/domain/context.js';
import type { Snapshot } from '../../functions/domain/snapshot.js';
import { countTokens } from '../../functions/commons/tokens.js';
import type { EmbeddingPort } from '../../functions/ports/embeddings.js';
import type { RawRecord } from '../../functions/ports/pipeline.js';
import type { IndexManifestStore, IndexSegmentStore } from '../../functions/ports/retrieval-index.js';
import { dropAgentIndex, dropUnits, indexBatch, refreshItems, type IndexDependencies } from '../../functions/use-cases/index-memory.js';
import { DECODED_PER_STORED_BYTE, RecallReader } from '../../functions/use-cases/recall.js';
import type { UpdaterView } from '../../functions/domain/views.js';

const agent: AgentKey = { tenantId: 'default', agentId: 'a' };

/** In-memory fakes of the two stores and an embedding model that counts what it embeds. */
function fakes() {
  const objects = new Map<string, IndexSegment>();
  let manifest: IndexManifest | undefined;
  let n = 0;
  const embedded: string[] = [];
  const segments: IndexSegmentStore = {
    async put(_agent, name, segment) {
      const key = `index/default/a/${name}-${(n += 1)}`;
      objects.set(key, segment);
      return { key, bytes: segment.units.length * 10 };
    },
    async get(key) {
      return objects.get(key);
    },
    async delete(keys) {
      for (const key of keys) objects.delete(key);
    },
    async deleteAll() {
      const count = objects.size;
      objects.clear();
      return count;
    },
  };
  const manifests: IndexManifestStore = {
    async read() {
      return manifest;
    },
    async write(_agent, next) {
      if (next.version !== (manifest?.version ?? 0) + 1) return false;
      manifest = next;
      return true;
    },
    async delete() {
      manifest = undefined;
    },
  };
  const embeddings: EmbeddingPort = {
    modelId: 'fake',
    dimensions: 3,
    async embed(texts) {
      embedded.push(...texts);
      return texts.map((t) => Float32Array.from([t.length % 7, 1, 0.5]).map((x, _i, v) => x / Math.hypot(...v)));
    },
  };
  const deps: IndexDependencies = { segments, manifests, embeddings };
  return { deps, objects, embedded, manifest: () => manifest };
}

const records = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => ({ id: `r${from + i}`, sequence: from + i, timestamp: `2026-01-01T00:${String((from + i) % 60).padStart(2, '0')}:00Z`, role: 'user', content: `record number ${from + i} about gardening` }));

describe('index maintenance', () => {
  it('adds each batch once, even when it is delivered again', async () => {
    const { deps, manifest } = fakes();
    await indexBatch(deps, agent, 50, records(1, 50));
    await indexBatch(deps, agent, 50, records(1, 50));
    expect(manifest()!.segments).toHaveLength(1);
    expect(manifest()!.recordsThrough).toBe(50);
  });

  it('merges full tiers so segments stay logarithmic, keeping every record exactly once', async () => {
    const { deps, manifest, objects } = fakes();
    for (let batch = 0; batch < 21; batch += 1) await indexBatch(deps, agent, (batch + 1) * 10, records(batch * 10 + 1, (batch + 1) * 10));
    // 21 batches in base 4 is 111: one segment of each tier.
    expect(manifest()!.segments.map((s) => s.tier)).toEqual([2, 1, 0]);
    const ids = manifest()!.segments.flatMap((s) => objects.get(s.key)!.units.map((u) => u.id));
    expect(ids).toHaveLength(210);
    expect(new Set(ids).size).toBe(210);
    // Merged-away segments are retired, not deleted at once: a snapshot assembled just before may still name them.
    expect(objects.size).toBe(3 + manifest()!.retired!.length);
    expect(manifest()!.retired!.every((r) => objects.has(r.key))).toBe(true);
  });

  it('embeds a long record\'s sentences beside its whole text, and keeps them through merges without embedding again', async () => {
    const { deps, manifest, objects, embedded } = fakes();
    const long = (sequence: number) => ({ id: `r${sequence}`, sequence, timestamp: '2026-01-01T00:00:00Z', role: 'user', content: `Record ${sequence} opens on the weather today. Then it tells of a new job at the harbour office.`, metadata: { speaker: 'Ada' } });
    await indexBatch(deps, agent, 1, [long(1)]);
    expect(embedded).toEqual(['Ada: Record 1 opens on the weather today. Then it tells of a new job at the harbour office.', 'Ada: Record 1 opens on the weather today.', 'Ada: Then it tells of a new job at the harbour office.']);
    const first = objects.get(manifest()!.segments[0]!.key)!;
    expect([...first.sentences!.owners]).toEqual([0, 0]);
    embedded.length = 0;
    for (let sequence = 2; sequence <= 4; sequence += 1) await indexBatch(deps, agent, sequence, [long(sequence)]);
    // Four batches make one merged segment: every record's two sentences follow it, and nothing is embedded twice.
    const merged = objects.get(manifest()!.segments[0]!.key)!;
    expect(manifest()!.segments.map((s) => s.tier)).toEqual([1]);
    expect([...merged.sentences!.owners]).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
    expect(embedded).toHaveLength(9);
  });

  it('rewrites the items segment only when an item changed, embedding only changed texts', async () => {
    const { deps, manifest, embedded } = fakes();
    const view = (statement: string): UpdaterView => ({ updater: 'facts', version: 1, batch: 1, lastSequence: 1, updatedAt: '', total: 2, omitted: 0, items: [{ id: 'f1', statement: 'Rosa is a nurse', evidence: ['r1'] }, { id: 'f2', statement, evidence: ['r2'] }] });
    await refreshItems(deps, agent, { facts: view('Rosa has a cat') });
    const first = manifest()!.items!.key;
    await refreshItems(deps, agent, { facts: view('Rosa has a cat') });
    expect(manifest()!.items!.key).toBe(first);
    embedded.length = 0;
    await refreshItems(deps, agent, { facts: view('Rosa has two cats') });
    expect(manifest()!.items!.key).not.toBe(first);
    expect(embedded).toEqual(['Rosa has two cats']);
  });

  it('embeds a short reply after the turn it answers, across a batch boundary too, and finds a reply by the question it answers', async () => {
    const { deps, embedded, objects } = fakes();
    const say = (sequence: number, speaker: string, content: string, interactionId = 's1') => ({ id: `r${sequence}`, sequence, timestamp: '2026-01-01T10:00:00Z', role: 'user', content, interactionId, metadata: { speaker } });
    const earlier = [say(1, 'Amy', 'why does gran refuse to eat grapes these days?'), say(2, 'Josh', "she says they're too much effort")];
    await indexBatch(deps, agent, 2, earlier);
    // The next batch opens with a reply; the turn it answers is read back from the raw log.
    const log = new Map([[3, say(3, 'Amy', 'how much did you send mum for the train ticket in the end?')]]);
    const withLog: IndexDependencies = { ...deps, rawLog: { getRange: async () => [], get: async (_agent, sequence) => log.get(sequence) as RawRecord | undefined } };
    const long = 'I booked the villa in Lagos for the second week of September and paid the deposit already today';
    await indexBatch(withLog, agent, 7, [say(4, 'Josh', 'sent. with interest'), say(5, 'Josh', 'and the van is sorted'), say(6, 'Amy', long), say(7, 'Josh', 'yep', 's2')]);

    expect(embedded).toContain("Amy: why does gran refuse to eat grapes these days?\nJosh: she says they're too much effort");
    expect(embedded).toContain('Amy: how much did you send mum for the train ticket in the end?\nJosh: sent. with interest');
    // The same speaker going on, a record that says enough, and the first of another session stand alone.
    expect(embedded).toContain('Josh: and the van is sorted');
    expect(embedded).toContain(`Amy: ${long}`);
    expect(embedded).toContain('Josh: yep');
    const units = [...objects.values()].flatMap((s) => s.units);
    const reply = units.find((u) => u.id === 'r2')!;
    // Its line shows the reply alone; lexical search finds it by the question's words too.
    expect(reply.text).toBe("she says they're too much effort");
    expect(reply.terms.split(' ')).toEqual(expect.arrayContaining(['effort', 'grape', 'gran']));
    // A reply to a turn that asks nothing is searched by its own words only.
    expect(units.find((u) => u.id === 'r5')!.terms).not.toContain('sent');
  });

  it('reads a longer answer with the question its turn ends on, and only that question', async () => {
    const { deps, embedded, objects } = fakes();
    const say = (sequence: number, speaker: string, content: string) => ({ id: `r${sequence}`, sequence, timestamp: '2026-01-01T10:00:00Z', role: 'user', content, interactionId: 's1', metadata: { speaker } });
    const answer = "Bad. I'd say five and a half, maybe six hours a night. I scroll on my phone until about 1am and the alarm goes at 6:45.";
    await indexBatch(deps, agent, 4, [
      say(1, 'Dana', 'Thanks for being honest about the weight. And sleep?'),
      say(2, 'Owen', answer),
      say(3, 'Dana', 'Right, the phone goes in the kitchen from now on, that is the whole plan for this week.'),
      say(4, 'Owen', 'Fine, I can live with that rule for a fortnight, and I will charge the phone downstairs beside the kettle every evening.'),
    ]);
    expect(embedded).toContain(`Dana: And sleep?\nOwen: ${answer}`);
    expect(embedded).toContain('Owen: Fine, I can live with that rule for a fortnight, and I will charge the phone downstairs beside the kettle every evening.');
    const units = [...objects.values()].flatMap((s) => s.units);
    expect(units.find((u) => u.id === 'r2')!.terms.split(' ')).toContain('sleep');
    expect(units.find((u) => u.id === 'r2')!.terms).not.toContain('weight');
    expect(units.find((u) => u.id === 'r2')!.text).toBe(answer);
  });

  it('finds a turn that opens on "she" by the one person the turn before names, and shows the turn as said', async () => {
    const { deps, objects } = fakes();
    const say = (sequence: number, speaker: string, content: string) => ({ id: `r${sequence}`, sequence, timestamp: '2026-01-01T10:00:00Z', role: 'user', content, interactionId: 's1', metadata: { speaker } });
    const said = "She wants me to lead the planning for the Q4 peak season, which is a big vote of confidence.";
    await indexBatch(deps, agent, 2, [say(1, 'Dana', 'Brilliant news. Tell me what Sandra said.'), say(2, 'Owen', said)]);
    const unit = [...objects.values()].flatMap((s) => s.units).find((u) => u.id === 'r2')!;
    expect(unit.terms.split(' ')).toContain('sandra');
    expect(unit.text).toBe(said);
  });

  it('hides dropped units from recall at once, and deletes a whole index on request', async () => {
    const { deps, manifest, objects } = fakes();
    await indexBatch(deps, agent, 3, records(1, 3));
    await dropUnits(deps, agent, ['r2']);
    const reader = new RecallReader(deps.segments, deps.embeddings);
    const { ranked } = await reader.recall(manifest()!, { query: 'gardening record', now: '2026-02-01T00:00:00Z' });
    expect(ranked.map((r) => r.unit.id).sort()).toEqual(['r1', 'r3']);
    expect(await dropAgentIndex(deps, agent)).toBe(1);
    expect(manifest()).toBeUndefined();
    expect(objects.size).toBe(0);
  });

  it('keeps the read cache within its bound, and an evicted segment in no cached index', async () => {
    const { deps, manifest } = fakes();
    await indexBatch(deps, agent, 3, records(1, 3));
    const first = manifest()!;
    await indexBatch(deps, agent, 6, records(4, 6));
    const second = manifest()!;
    const segmentBytes = first.segments[0]!.bytes * DECODED_PER_STORED_BYTE;
    // Room for one decoded segment and a half.
    const reader = new RecallReader(deps.segments, deps.embeddings, segmentBytes * 1.5);

    expect((await reader.index(first)).fetched).toBe(1);
    expect((await reader.index(first)).fetched).toBe(0);
    await reader.index(second);

    expect(reader.cachedBytes).toBeLessThanOrEqual(segmentBytes * 1.5);
    // The first manifest's index held the evicted segment: it is gone with it, and reading it fetches again.
    expect((await reader.index(first)).fetched).toBe(1);
  });
});

describe('changes said, kept with the index for the context without a question', () => {
  const said = (id: string, sequence: number, content: string, timestamp: string) => ({ id, sequence, timestamp, role: 'user', content });
  const withIndex = (manifest: IndexManifest): Snapshot => ({
    tenantId: 'default',
    agentId: 'a',
    version: 3,
    generatedAt: '2026-07-01T00:00:00Z',
    freshness: { lastConsolidatedSequence: 2, lastIngestedSequence: 2, pendingRecords: 0 },
    time: [{ id: 'time:3:0', level: 3, name: '12 weeks', from: '2026-05-25', to: '2026-08-16', text: '2026-06-01 [m1]: Medals: 200 on a navy ribbon at £1.20 each.', tokens: 20, asOf: '2026-07-01T00:00:00Z' }],
    count: [],
    index: manifest,
  });
  const standing = (snapshot: Snapshot) => renderContext(snapshot, { maxTokens: 1_000, now: '2026-07-01T00:00:00Z', countTokens }).markdown;

  it('marks a summary line said before a change that no summary kept, and forgets the change with its record', async () => {
    const { deps, manifest } = fakes();
    await indexBatch(deps, agent, 1, [said('m1', 1, 'Medals: 200 on a navy ribbon at £1.20 each.', '2026-06-01T10:00:00Z')]);
    expect(manifest()!.said ?? []).toEqual([]);
    await indexBatch(deps, agent, 2, [said('m2', 2, 'Podium rang: we are going with claret ribbons instead of navy.', '2026-06-20T10:00:00Z')]);
    expect(manifest()!.said).toEqual([expect.objectContaining({ records: ['m2'], value: 'claret', replaces: 'navy' })]);
    // Delivered again, the batch adds nothing.
    await indexBatch(deps, agent, 2, [said('m2', 2, 'Podium rang: we are going with claret ribbons instead of navy.', '2026-06-20T10:00:00Z')]);
    expect(manifest()!.said).toHaveLength(1);

    expect(standing(withIndex(manifest()!))).toMatch(/navy ribbon at £1\.20 each\. \(later: claret\)/);

    await dropUnits(deps, agent, ['m2']);
    expect(manifest()!.said).toEqual([]);
    expect(standing(withIndex(manifest()!))).not.toContain('(later:');
  });

  it('reads lower-case chat with the names of the contacts it is given', async () => {
    const chat = [said('k1', 1, 'whatsapp group admin is becky. shes the one who posts the lineups', '2026-03-04T18:00:00Z'), said('k2', 2, "becky's stepping down from whatsapp admin. too busy. rahim doing it now", '2026-04-26T18:00:00Z')];
    const blind = fakes();
    await indexBatch(blind.deps, agent, 2, chat);
    expect(blind.manifest()!.said ?? []).toEqual([]);
    const { deps, manifest } = fakes();
    await indexBatch(deps, agent, 2, chat, [], ['Becky', 'Rahim Akhtar']);
    expect(manifest()!.said).toEqual([expect.objectContaining({ records: ['k2'], value: 'Rahim', replaces: 'Becky' })]);
  });

  it('keeps the newest changes, at most MAX_SAID_IN_MANIFEST, one per id', () => {
    const value = (n: number) => ({ itemId: `said:r${n}`, records: [`r${n}`], value: `£${n}`, reason: 'later' as const, at: `2026-01-01T00:00:${String(n % 60).padStart(2, '0')}Z`, now: `£${n}` });
    const kept = keepSaid(Array.from({ length: 30 }, (_, i) => value(i)), [value(5), ...Array.from({ length: 20 }, (_, i) => value(30 + i))]);
    expect(kept).toHaveLength(MAX_SAID_IN_MANIFEST);
    expect(kept.at(-1)!.itemId).toBe('said:r49');
    expect(new Set(kept.map((v) => v.itemId)).size).toBe(kept.length);
  });

  it('keeps each change a record said, not only the last one read from it', () => {
    const change = (value: string, about: string[]) => ({ itemId: 'said:c66', records: ['c66'], value, reason: 'later' as const, at: '2026-03-05T11:21:47Z', now: value, about, loose: true });
    const kept = keepSaid([], [change('BFS-40388', ['order', 'referenc']), change('BFS-40388', ['turn', 'search']), change('Thursday', ['install'])]);
    expect(kept.map((v) => [v.value, v.about])).toEqual([['BFS-40388', ['order', 'referenc', 'turn', 'search']], ['Thursday', ['install']]]);
    // Read again, a change replaces itself.
    expect(keepSaid(kept, [change('Thursday', ['install'])])).toHaveLength(2);
  });
});
