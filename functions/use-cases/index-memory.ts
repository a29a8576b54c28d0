/**
 * Maintains an agent's retrieval index, offline, as the consolidation
 * pipeline runs (never on ingest):
 *
 * - `indexBatch`: after a batch is consolidated, its records (and any earlier
 *   ones a failed attempt left out, by the manifest's `recordsThrough`) and
 *   the base summaries it closed become one new segment;
 * - `indexSummaries`: summaries the ladder or the sweep wrote, one segment;
 * - `refreshItems`: the contacts, facts and tasks of the store views, one
 *   segment replaced whenever they change (vectors of unchanged texts reused);
 * - `dropUnits` / `dropAgentIndex`: erasure and forgetting.
 *
 * Units are embedded here, in batches. Each new segment is added to the
 * manifest by a conditional write (retried when another writer won); then
 * segments are merged tier by tier (`mergePlan`), so an agent keeps a
 * logarithmic number of them. Merged-away segments are deleted after the
 * manifest no longer lists them.
 */
import { createHash } from 'node:crypto';
import type { AgentKey } from '../domain/agent-key.js';
import { withoutAnchoredDates } from '../domain/dates.js';
import { MemoryServiceError } from '../domain/errors.js';
import { buildSegment, keepSaid, mergePlan, mergeSegments, RETIRE_AFTER_MS, unitVector, type IndexManifest, type IndexSegment, type SegmentRef, type SegmentUnit } from '../domain/index-segment.js';
import { answeredQuestion, itemUnit, pronounReferent, recordSentences, recordUnit, replyContext, saidBefore, speakerOf, searchText, summaryUnit, type IndexUnit, type RecordLike, type SummaryLike } from '../domain/index-units.js';
import { indexTerms } from '../domain/terms.js';
import { changesSaid, type RetiredValue } from '../domain/supersession.js';
import { withoutCitations } from '../domain/summary-lines.js';
import type { UpdaterView } from '../domain/views.js';
import type { EmbeddingPort } from '../ports/embeddings.js';
import type { RawLog } from '../ports/pipeline.js';
import type { IndexManifestStore, IndexSegmentStore } from '../ports/retrieval-index.js';

export interface IndexDependencies {
  readonly manifests: IndexManifestStore;
  readonly segments: IndexSegmentStore;
  readonly embeddings: EmbeddingPort;
  /** Reads records an earlier attempt left unindexed. */
  readonly rawLog?: Pick<RawLog, 'getRange' | 'get'>;
}

export class IndexConflictError extends MemoryServiceError {
  override readonly name = 'IndexConflictError';
}

const MAX_ATTEMPTS = 8;

function emptyManifest(embeddings: EmbeddingPort): IndexManifest {
  return { version: 0, modelId: embeddings.modelId, dimensions: embeddings.dimensions, segments: [], recordsThrough: 0, dropped: [] };
}

/** What the embedding model reads of a unit: a short reply is read after the turn it answers (`replyContext`). */
function embeddingText(unit: IndexUnit, context?: string): string {
  if (unit.kind === 'record') return `${context ? `${context}\n` : ''}${unit.speaker ?? ''}: ${withoutAnchoredDates(unit.text)}`;
  const text = withoutAnchoredDates(withoutCitations(unit.text));
  return unit.label ? `${unit.label}: ${text}` : text;
}

/**
 * Units with their terms and vectors. `previous` is the record said just before the first unit, when it is not
 * among them (the last of the batch before), so a batch's first reply is read in context too.
 */
async function toSegment(embeddings: EmbeddingPort, units: readonly IndexUnit[], reuse: ReadonlyMap<string, Float32Array> = new Map(), previous?: IndexUnit): Promise<IndexSegment> {
  const bySequence = new Map(units.filter((u) => u.kind === 'record' && u.sequence !== undefined).map((u) => [u.sequence!, u]));
  if (previous?.sequence !== undefined && !bySequence.has(previous.sequence)) bySequence.set(previous.sequence, previous);
  /** The record said `back` turns before `unit`, when known. */
  const earlier = (unit: IndexUnit, back: number) => (unit.kind === 'record' && unit.sequence !== undefined ? bySequence.get(unit.sequence - back) : undefined);
  const before = (unit: IndexUnit) => earlier(unit, 1);
  const withTerms: SegmentUnit[] = [];
  const texts: string[] = [];
  for (const unit of units) {
    const own = indexTerms(searchText(unit));
    // A reply is found by the words of the question it answers too; its line still shows only the reply.
    const question = answeredQuestion(unit, before(unit));
    // …and one that opens on "she" or "he" by the one person the turn before names (across a bare "no?" too).
    const referent = pronounReferent(unit, (back) => earlier(unit, back));
    const fromQuestion = question ? indexTerms(question) : [];
    const fromReferent = referent ? indexTerms(referent).filter((term) => !fromQuestion.includes(term)) : [];
    const asked = [...fromQuestion, ...fromReferent].filter((term) => !own.includes(term));
    withTerms.push({ ...unit, terms: [...own, ...asked].join(' ') });
    texts.push(embeddingText(unit, replyContext(unit, own.length, before(unit))));
  }
  // A long record's sentences are embedded one by one too (`recordSentences`), searched beside its whole text.
  const sentenceTexts = withTerms.map((unit) => recordSentences(unit));
  const all = [...texts, ...sentenceTexts.flat()];
  const missing = [...new Set(all.filter((text) => !reuse.has(text)))];
  const fresh = new Map<string, Float32Array>();
  const vectors = await embeddings.embed(missing);
  missing.forEach((text, i) => fresh.set(text, vectors[i]!));
  const vectorOf = (text: string) => reuse.get(text) ?? fresh.get(text)!;
  const sentences = sentenceTexts.flatMap((list, owner) => list.map((text) => ({ owner, vector: vectorOf(text) })));
  return buildSegment(embeddings.modelId, embeddings.dimensions, withTerms, texts.map(vectorOf), sentences);
}

/** Applies `change` to the current manifest and writes it, retrying when another writer moved it first. */
async function updateManifest(deps: IndexDependencies, agent: AgentKey, change: (current: IndexManifest) => IndexManifest | undefined, retire: readonly string[] = []): Promise<IndexManifest | undefined> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    const current = (await deps.manifests.read(agent)) ?? emptyManifest(deps.embeddings);
    const next = change(current);
    if (!next) return current;
    // Replaced segments are deleted only once no recent snapshot can still name them.
    const now = Date.now();
    const retired = [...(next.retired ?? []), ...retire.map((key) => ({ key, at: new Date(now).toISOString() }))];
    const expired = retired.filter((r) => now - Date.parse(r.at) > RETIRE_AFTER_MS);
    const written: IndexManifest = { ...next, version: current.version + 1, retired: retired.filter((r) => !expired.includes(r)) };
    if (await deps.manifests.write(agent, written)) {
      if (expired.length > 0) await deps.segments.delete(expired.map((r) => r.key));
      return written;
    }
  }
  throw new IndexConflictError(`index manifest of ${agent.agentId} kept changing`);
}

/** Adds units as one new segment, then merges tiers that are full. */
async function addSegment(deps: IndexDependencies, agent: AgentKey, units: readonly IndexUnit[], recordsThrough?: number, previous?: IndexUnit, said: readonly RetiredValue[] = []): Promise<IndexManifest | undefined> {
  if (units.length === 0) return undefined;
  const segment = await toSegment(deps.embeddings, units, new Map(), previous);
  const stored = await deps.segments.put(agent, 't0', segment);
  const ref: SegmentRef = { key: stored.key, units: units.length, bytes: stored.bytes, tier: 0 };
  const manifest = await updateManifest(deps, agent, (current) => ({
    ...current,
    segments: [...current.segments, ref],
    recordsThrough: Math.max(current.recordsThrough, recordsThrough ?? 0),
    ...(said.length > 0 ? { said: keepSaid(current.said, said) } : {}),
  }));
  return compact(deps, agent, manifest!);
}

/** Merges full tiers until none is; each merge is its own conditional manifest write. */
async function compact(deps: IndexDependencies, agent: AgentKey, manifest: IndexManifest): Promise<IndexManifest> {
  let current = manifest;
  for (let plan = mergePlan(current.segments); plan; plan = mergePlan(current.segments)) {
    const keys = plan.keys;
    const loaded = await Promise.all(keys.map((key) => deps.segments.get(key)));
    if (loaded.some((s) => s === undefined)) throw new MemoryServiceError(`index segment missing while merging: ${keys.join(', ')}`);
    const dropped = new Set(current.dropped);
    const { units, vectors, sentences } = mergeSegments(loaded as IndexSegment[], dropped);
    const merged = buildSegment(current.modelId, current.dimensions, units, vectors, sentences);
    const stored = await deps.segments.put(agent, `t${plan.tier + 1}`, merged);
    const ref: SegmentRef = { key: stored.key, units: units.length, bytes: stored.bytes, tier: plan.tier + 1 };
    let applied = false;
    const next = await updateManifest(deps, agent, (latest) => {
      // Another writer merged these first: nothing to do.
      if (!keys.every((key) => latest.segments.some((s) => s.key === key))) return undefined;
      applied = true;
      const at = latest.segments.findIndex((s) => s.key === keys[0]);
      const rest = latest.segments.filter((s) => !keys.includes(s.key));
      // The merged segment takes the place of the oldest it replaces, so newer copies of an id still win.
      const segments = [...rest.slice(0, at), ref, ...rest.slice(at)];
      return { ...latest, segments };
    }, keys);
    // Not applied: another writer merged them first; this copy was never listed.
    if (!applied) await deps.segments.delete([stored.key]);
    current = next!;
  }
  return current;
}

/**
 * Indexes a consolidated batch: every record after the manifest's
 * `recordsThrough` through `through` (the batch's records are passed in; any
 * earlier ones are read from the raw log), plus the summaries just written.
 * Idempotent for records: a redelivered batch adds nothing.
 */
export async function indexBatch(deps: IndexDependencies, agent: AgentKey, through: number, records: readonly RecordLike[], summaries: readonly SummaryLike[] = [], names: readonly string[] = []): Promise<IndexManifest | undefined> {
  const manifest = await deps.manifests.read(agent);
  const done = manifest?.recordsThrough ?? 0;
  let pending = records.filter((r) => r.sequence > done && r.sequence <= through);
  const firstGiven = records.reduce((min, r) => Math.min(min, r.sequence), Number.POSITIVE_INFINITY);
  const gapEnd = Math.min(firstGiven - 1, through);
  if (deps.rawLog && gapEnd > done) pending = [...(await deps.rawLog.getRange(agent, done + 1, gapEnd)), ...pending];
  if (pending.length === 0 && summaries.length === 0) return manifest;
  // The record before the first one indexed here (one small read; none for a hole or an erased record), so a
  // reply that opens a batch is read with what it answers.
  const first = pending.reduce((min, r) => Math.min(min, r.sequence), Number.POSITIVE_INFINITY);
  const before = deps.rawLog && Number.isFinite(first) && first > 1 ? await deps.rawLog.get(agent, first - 1) : undefined;
  // Each record is dated with the one said before it at hand (a reply with no tense takes its question's).
  const bySequence = new Map([...(before ? [before] : []), ...pending].map((r) => [r.sequence, r]));
  const recordUnits = pending.map((record) => recordUnit(record, bySequence.get(record.sequence - 1)));
  const units = [...recordUnits, ...summaries.map(summaryUnit).filter((u): u is IndexUnit => u !== undefined)];
  if (units.length === 0) return manifest;
  // What these records say changed, read once here for the context without a question (IndexManifest.said).
  // Lower-case chat is read with the batch's speakers and the contacts the store knows (`names`) written as names.
  // Each with what was said just before it, for a value given in answer to a change asked for.
  const saidUnits = pending.map((record, i) => {
    const previous = saidBefore(record, bySequence.get(record.sequence - 1));
    return { ...recordUnits[i]!, before: previous ? { text: previous.content, speaker: speakerOf(previous) } : undefined };
  });
  const said = changesSaid(saidUnits, [...new Set([...recordUnits.flatMap((unit) => (unit.speaker ? [unit.speaker] : [])), ...names])]);
  return addSegment(deps, agent, units, Math.max(done, through), before ? recordUnit(before) : undefined, said);
}

/** Indexes summaries written by the ladder or the sweep. */
export async function indexSummaries(deps: IndexDependencies, agent: AgentKey, summaries: readonly SummaryLike[]): Promise<IndexManifest | undefined> {
  return addSegment(deps, agent, summaries.map(summaryUnit).filter((u): u is IndexUnit => u !== undefined));
}

/**
 * Makes the items segment match the store views, writing a new one only if
 * an item changed; vectors of unchanged texts are taken from the previous
 * segment. Returns the manifest as it now stands (undefined: no index yet).
 */
export async function refreshItems(deps: IndexDependencies, agent: AgentKey, views: { readonly contacts?: UpdaterView; readonly facts?: UpdaterView; readonly tasks?: UpdaterView }): Promise<IndexManifest | undefined> {
  const units: IndexUnit[] = [
    ...(views.contacts?.items ?? []).map((item) => itemUnit('contact', item)),
    ...(views.facts?.items ?? []).map((item) => itemUnit('fact', item)),
    ...(views.tasks?.items ?? []).map((item) => itemUnit('task', item)),
  ];
  const hash = createHash('sha256').update(JSON.stringify(units)).digest('base64url').slice(0, 22);
  const manifest = await deps.manifests.read(agent);
  if (manifest?.items?.hash === hash || (!manifest && units.length === 0)) return manifest;
  const reuse = new Map<string, Float32Array>();
  const previous = manifest?.items ? await deps.segments.get(manifest.items.key) : undefined;
  if (previous && previous.modelId === deps.embeddings.modelId) {
    previous.units.forEach((unit, i) => reuse.set(embeddingText(unit), unitVector(previous, i)));
  }
  const segment = await toSegment(deps.embeddings, units, reuse);
  const stored = await deps.segments.put(agent, 'items', segment);
  return updateManifest(deps, agent, (current) => ({
    ...current,
    items: { key: stored.key, units: units.length, bytes: stored.bytes, tier: 0, hash },
    retired: [...(current.retired ?? []), ...(current.items ? [{ key: current.items.key, at: new Date().toISOString() }] : [])],
  }));
}

/**
 * Drops units by id (erasure, forgetting): they are hidden at once through
 * the manifest, and physically left out of the next merge of their segment.
 */
export async function dropUnits(deps: IndexDependencies, agent: AgentKey, ids: readonly string[]): Promise<IndexManifest | undefined> {
  if (ids.length === 0) return deps.manifests.read(agent);
  const gone = new Set(ids);
  return updateManifest(deps, agent, (current) =>
    current.version === 0
      ? undefined
      : { ...current, dropped: [...new Set([...current.dropped, ...ids])], ...(current.said ? { said: current.said.filter((value) => !value.records.some((id) => gone.has(id))) } : {}) },
  );
}

/** Deletes an agent's whole index: its manifest, then every segment. */
export async function dropAgentIndex(deps: IndexDependencies, agent: AgentKey): Promise<number> {
  await deps.manifests.delete(agent);
  return deps.segments.deleteAll(agent);
}
