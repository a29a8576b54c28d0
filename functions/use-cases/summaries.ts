/**
 * The two summary ladders.
 *
 * - `placeRecords` runs after each consolidated batch: it advances the
 *   agent's summary cursor and writes a base summary for every day or
 *   interaction that closed, reading those raw records once (a stretch of
 *   silent days gets one empty run, with no model call, however long).
 * - `sweepAgent` closes days that ended and interactions that went idle, for
 *   agents that went quiet, and some time after periods closed, checks that
 *   the ladders above them hold every parent they complete (`repairLadders`).
 * - `climbLadder` runs for every summary the Summaries stream announces: it
 *   registers the summary with its parent's slot and writes the parent only
 *   once its full fan-in has arrived. Higher levels read only the level below.
 *   An empty run registers with the (at most two) parents it only partly
 *   covers, and records the parents it wholly covers as one run a level up.
 *
 * Every write is idempotent: summaries are put once (conditional), slots are
 * string sets, and the cursor is versioned.
 */
import { createHash } from 'node:crypto';
import type { AgentKey } from '../domain/agent-key.js';
import { childIndices, coveredRange, coveredRunRange, parentIndex, splitEmptyRun, summaryId, topLevel, type Ladder, type LadderConfig } from '../domain/ladders.js';
import { advanceCursor, clearLadderCheck, EMPTY_CURSOR, ladderCheckDelayFrom, ladderCheckDue, nextSweepAt, noteClosed, sweepCursor, type ClosedPeriod, type CursorOptions, type LadderCheck, type PlacedRecord, type SummaryCursor } from '../domain/summary-cursor.js';
import { MemoryServiceError } from '../domain/errors.js';
import { anchorRelativeDates } from '../domain/dates.js';
import { looksLikeInstruction } from '../domain/instructions.js';
import { formatSummaryLine, parseSummaryLine, summaryTokens } from '../domain/summary-lines.js';
import type { ModelPort, SummaryInput } from '../ports/model.js';
import { countTokens } from '../commons/tokens.js';
import { renderSummaryPrompt } from '../domain/prompts/summary.v2.js';
import { z } from 'zod';
import type { RawLog, RawRecord } from '../ports/pipeline.js';
import type { RebuildJob } from '../domain/sweep-job.js';
import type { StoredSummary, SummaryStore } from '../ports/summary-store.js';
import { BatchBudget, DEFAULT_MAX_PROMPT_TOKENS, type BudgetLimits } from './model-budget.js';
import { MIN_RECORD_TOKENS_PER_CALL } from './plan-model-input.js';
import { cutAndPack, waterLevel, type TextOf } from '../domain/chunking.js';

export interface SummaryDependencies {
  readonly summaries: SummaryStore;
  readonly rawLog: RawLog;
  readonly model: ModelPort;
  readonly ladders: LadderConfig;
  readonly cursor: CursorOptions;
  readonly now?: () => Date;
  /**
   * Model budget of one placement or sweep run (base summaries it writes).
   * Exceeding it fails the run; what was written stays, and a retry does not
   * pay for it again (a written summary is never regenerated).
   */
  readonly budget?: BudgetLimits;
}

/** The ladder step needs no raw log: higher levels are written from the level below only. */
export type LadderDependencies = Omit<SummaryDependencies, 'rawLog' | 'cursor'>;

export class CursorConflictError extends MemoryServiceError {
  override readonly name = 'CursorConflictError';
}

const summaryOutput = z.strictObject({ text: z.string().max(20_000) });
const MAX_CURSOR_ATTEMPTS = 5;

/**
 * `throughSequence`: the records are every record up to it (slots without a
 * record are holes), so the cursor counts it as placed even when the last
 * slots hold no record.
 */
export async function placeRecords(deps: SummaryDependencies, agent: AgentKey, records: readonly PlacedRecord[], throughSequence = 0): Promise<StoredSummary[]> {
  return moveCursor(deps, agent, (cursor) => {
    const moved = advanceCursor(cursor, records, deps.cursor);
    return moved.cursor.lastSequence >= throughSequence ? moved : { ...moved, cursor: { ...moved.cursor, lastSequence: throughSequence } };
  });
}

export async function sweepAgent(deps: SummaryDependencies, agent: AgentKey): Promise<StoredSummary[]> {
  const now = (deps.now ?? (() => new Date()))().toISOString();
  // One budget for the sweep: the repair and the periods it closes together stay inside one invocation's limits.
  const budget = deps.budget ? new BatchBudget(deps.budget) : undefined;
  const current = await deps.summaries.getCursor(agent);
  const check = ladderCheckDue(current?.cursor, now);
  // Before the cursor moves: what this sweep closes is checked next time, once the stream has had its turn.
  const repair = check ? await repairLadders(deps, agent, current!.cursor, check, budget) : undefined;
  const swept = await moveCursor(
    deps,
    agent,
    (cursor) => {
      const moved = sweepCursor(cursor, now, deps.cursor);
      if (!check) return moved;
      // What the check covered is done, unless a parent was left for later (too fresh, or its write failed).
      const after = ladderCheckDelayFrom(now, deps.cursor);
      return { ...moved, cursor: repair?.deferred ? { ...moved.cursor, ladderCheck: { ...check, ...moved.cursor.ladderCheck, at: after } } : clearLadderCheck(moved.cursor, check, after) };
    },
    budget,
  );
  return [...(repair?.written ?? []), ...swept];
}

/**
 * The stream announces each new summary, and the ladder builds each parent
 * once its last child is announced. An announcement the stream gave up on
 * (its retries spent, sent to the ladder's dead-letter queue) would leave a
 * complete parent unwritten for good, and every level above it. This check
 * finds those parents from the stored summaries alone: every base period up
 * to the last one closed is stored (the cursor writes them in order), so a
 * parent is complete when its last child is at or below that frontier, level
 * by level. A missing complete parent is registered with all its children and
 * written as the ladder would write it (then announced, so the climb goes on).
 * A parent whose newest child is younger than the check's delay is left to
 * the stream (it may be writing it now), and so is one whose write fails
 * (budget, model): either leaves the check `deferred`, to run again later.
 * When nothing completed a parent, the check reads nothing.
 */
export async function repairLadders(deps: SummaryDependencies, agent: AgentKey, cursor: SummaryCursor, check: LadderCheck, budget?: BatchBudget): Promise<{ written: StoredSummary[]; deferred: boolean }> {
  const written: StoredSummary[] = [];
  let deferred = false;
  const settledBefore = ladderCheckDelayFrom((deps.now ?? (() => new Date()))().getTime(), deps.cursor, -1);
  for (const ladder of ['time', 'count'] as const) {
    const range = check[ladder];
    if (!range) continue;
    const origin = ladder === 'time' ? (cursor.originWeek ?? 0) : 0;
    let [first, frontier] = range;
    // A read that fails stops this ladder's check only: the sweep goes on, and the check runs again later.
    try {
      for (let level = 0; level < topLevel(deps.ladders, ladder); level += 1) {
        const parentLevel = level + 1;
        const low = parentIndex(deps.ladders, ladder, level, first, origin);
        const high = parentIndex(deps.ladders, ladder, level, frontier, origin);
        // The highest parent whose last child is stored: the frontier one level up.
        const top = childIndices(deps.ladders, ladder, parentLevel, high, origin).at(-1)! <= frontier ? high : high - 1;
        if (top < low) break;
        const keys = Array.from({ length: top - low + 1 }, (_, i) => ({ ladder, level: parentLevel, index: low + i }));
        const stored = new Set((await deps.summaries.getSummaries(agent, keys)).map((summary) => summary.index));
        const missing = keys.filter((key) => !stored.has(key.index));
        const runs = missing.length === 0 ? [] : await deps.summaries.findEmptyRuns(agent, ladder, parentLevel, missing[0]!.index, missing.at(-1)!.index);
        for (const key of missing) {
          if (runs.some((run) => run.index <= key.index && (run.through ?? run.index) >= key.index)) continue;
          try {
            const repaired = await repairParent(deps, agent, ladder, parentLevel, key.index, origin, settledBefore, budget);
            if (repaired === 'fresh') deferred = true;
            else if (repaired) written.push(repaired);
          } catch {
            // This parent only: the sweep goes on, and the check runs again later.
            deferred = true;
          }
        }
        [first, frontier] = [low, top];
      }
    } catch {
      deferred = true;
    }
  }
  return { written, deferred };
}

/**
 * Writes a parent the stream did not, when every child is stored (a gap further down is left for that level's own
 * repair); 'fresh' when its newest child was written after `settledBefore`, so the stream may still be writing it.
 */
async function repairParent(deps: LadderDependencies, agent: AgentKey, ladder: Ladder, parentLevel: number, parent: number, origin: number, settledBefore: string, budget?: BatchBudget): Promise<StoredSummary | 'fresh' | undefined> {
  const level = parentLevel - 1;
  const children = childIndices(deps.ladders, ladder, parentLevel, parent, origin);
  const found = await deps.summaries.getSummaries(agent, children.map((index) => ({ ladder, level, index })));
  const stored = new Set(found.map((child) => child.index));
  const missing = children.filter((index) => !stored.has(index));
  const runs = missing.length === 0 ? [] : await deps.summaries.findEmptyRuns(agent, ladder, level, missing[0]!, missing.at(-1)!);
  if (!missing.every((index) => runs.some((run) => run.index <= index && (run.through ?? run.index) >= index))) return undefined;
  if ([...found, ...runs].some((child) => child.createdAt > settledBefore)) return 'fresh';
  const registered = await deps.summaries.registerChild(agent, ladder, parentLevel, parent, children.map((index) => summaryId(ladder, level, index)));
  return completeParent(deps, agent, ladder, parentLevel, parent, origin, registered, budget);
}

async function moveCursor(
  deps: SummaryDependencies,
  agent: AgentKey,
  move: (cursor: SummaryCursor) => { cursor: SummaryCursor; closed: ClosedPeriod[] },
  budget = deps.budget ? new BatchBudget(deps.budget) : undefined,
): Promise<StoredSummary[]> {
  for (let attempt = 1; attempt <= MAX_CURSOR_ATTEMPTS; attempt += 1) {
    const current = await deps.summaries.getCursor(agent);
    const moved = move(current?.cursor ?? EMPTY_CURSOR);
    const closed = moved.closed;
    const cursor = noteClosed(moved.cursor, closed, (deps.now ?? (() => new Date()))().toISOString(), deps.cursor);
    // Summaries first, cursor second: a crash between them recomputes the same periods, and the
    // conditional puts write nothing twice.
    const written: StoredSummary[] = [];
    // Written by an earlier attempt (a retry after a crash or a spent budget): not paid for again.
    // One batched read for the run, only for periods that would call the model.
    const withRecords = closed.filter((period) => period.range);
    const existing = withRecords.length === 0 ? new Set<string>() : new Set((await deps.summaries.getSummaries(agent, withRecords.map((p) => ({ ladder: p.ladder, level: 0, index: p.index })))).map((s) => s.id));
    const toWrite = closed.filter((period) => !existing.has(summaryId(period.ladder, 0, period.index)));
    // The day and the interaction that close together cover the same records: each record is read once.
    const records = await readCovered(deps.rawLog, agent, toWrite.flatMap((period) => (period.range ? [period.range] : [])));
    for (const period of toWrite) {
      const summary = await writeBase(deps, agent, period, cursor.originWeek ?? 0, budget, records);
      if (summary) written.push(summary);
    }
    if (closed.length === 0 && current && JSON.stringify(cursor) === JSON.stringify(current.cursor)) return written;
    if (await deps.summaries.putCursor(agent, cursor, current?.version ?? 0, nextSweepAt(cursor, deps.cursor))) return written;
  }
  throw new CursorConflictError(`summary cursor of ${agent.agentId} kept moving`);
}

/** The records of every range, each overlapping or adjacent run of ranges read once, in sequence order. */
async function readCovered(rawLog: SummaryDependencies['rawLog'], agent: AgentKey, ranges: readonly NonNullable<ClosedPeriod['range']>[]): Promise<RawRecord[]> {
  const merged: { fromSequence: number; toSequence: number }[] = [];
  for (const range of [...ranges].sort((a, b) => a.fromSequence - b.fromSequence)) {
    const last = merged.at(-1);
    if (last && range.fromSequence <= last.toSequence + 1) last.toSequence = Math.max(last.toSequence, range.toSequence);
    else merged.push({ ...range });
  }
  const records: RawRecord[] = [];
  for (const run of merged) records.push(...(await rawLog.getRange(agent, run.fromSequence, run.toSequence)));
  return records;
}

async function writeBase(
  deps: SummaryDependencies,
  agent: AgentKey,
  period: ClosedPeriod,
  origin: number,
  budget: BatchBudget | undefined,
  covered: readonly RawRecord[],
): Promise<StoredSummary | undefined> {
  const range = coveredRange(deps.ladders, period.ladder, 0, period.index);
  const base = { id: summaryId(period.ladder, 0, period.index), ladder: period.ladder, level: 0, index: period.index, origin, ...range, children: [] as string[] };
  const now = (deps.now ?? (() => new Date()))().toISOString();
  if (!period.range) {
    // One item for the whole silent stretch; a single silent day is an ordinary empty marker.
    const last = period.last ?? period.index;
    const marker: StoredSummary = {
      ...base,
      ...(last > period.index ? { through: last, ...coveredRunRange(deps.ladders, period.ladder, 0, period.index, last) } : {}),
      sources: [],
      text: '',
      tokens: 0,
      inputTokens: 0,
      empty: true,
      modelId: '',
      createdAt: now,
    };
    return (await deps.summaries.putSummary(agent, marker)) ? marker : undefined;
  }
  const { fromSequence, toSequence } = period.range;
  const records = covered.filter((record) => record.sequence >= fromSequence && record.sequence <= toSequence);
  // A day and an interaction of the same records, closed together (or one after the other), share one call.
  const key = baseKey(agent, records);
  const recentBase = recentBaseOf(deps.summaries);
  const shared = recentBase.get(key);
  const pending =
    shared ??
    summarise(deps, {
      ladder: period.ladder,
      level: 0,
      ...range,
      maxTokens: levelBound(deps.ladders, 0),
      sources: records.map((record: RawRecord) => ({ id: record.id, at: record.timestamp, text: record.content, role: record.role })),
    }, budget);
  if (!shared) {
    recentBase.set(key, pending);
    // A failed call is not remembered: the next attempt asks again.
    pending.catch(() => recentBase.delete(key));
    while (recentBase.size > RECENT_BASE_LIMIT) recentBase.delete(recentBase.keys().next().value!);
  }
  const summary = shared ? { ...(await shared), inputTokens: 0 } : await pending;
  const stored: StoredSummary = { ...base, sources: records.map((r) => r.id), range: period.range, ...summary, empty: false, createdAt: now };
  return (await deps.summaries.putSummary(agent, stored)) ? stored : undefined;
}

/**
 * One summary from its sources. Sources larger than one prompt are read in
 * chunks, each summarised to the level's bound, and the partial summaries
 * summarised again (map, then reduce); a source longer than a whole prompt is
 * cut. Every call counts against the run's budget.
 */
async function summarise(deps: LadderDependencies, input: SummaryInput, budget?: BatchBudget, depth = 0): Promise<{ text: string; tokens: number; inputTokens: number; modelId: string }> {
  // Sources no longer than the summary they would make are their own summary: no call. Its lines cite their records
  // when that fits the bound, each id counted as a short one (summaryTokens: a long id costs what a short one does);
  // a quiet day never becomes a model call for its ids, but is kept without them.
  const bound = Math.min(input.maxTokens, deps.ladders.verbatimTokens?.[input.level] ?? input.maxTokens);
  for (const cite of [true, false]) {
    const verbatim = verbatimSummary(input.sources, cite);
    if (summaryTokens(verbatim, countTokens) <= bound) return { text: verbatim, tokens: countTokens(verbatim), inputTokens: 0, modelId: VERBATIM_MODEL_ID };
  }
  const chunks = fitSources(input, deps.budget?.maxPromptTokens ?? DEFAULT_MAX_PROMPT_TOKENS, depth >= MAX_SUMMARY_DEPTH);
  if (chunks.length > 1) {
    const partials: SummaryInput['sources'][number][] = [];
    let inputTokens = 0;
    for (const [i, sources] of chunks.entries()) {
      const part = await summarise(deps, { ...input, sources }, budget, depth + 1);
      inputTokens += part.inputTokens;
      if (part.text) partials.push({ id: `part-${i + 1}`, at: sources[0]!.at, text: part.text });
    }
    const combined = await summarise(deps, { ...input, sources: partials }, budget, depth + 1);
    return { ...combined, inputTokens: inputTokens + combined.inputTokens };
  }
  const fitted = { ...input, sources: chunks[0] ?? input.sources };
  const prompt = renderSummaryPrompt(fitted);
  const signal = budget?.startCall();
  const response = await deps.model.invoke({ task: 'summary', prompt, input: fitted, outputSchema: summaryOutput, maxOutputTokens: input.maxTokens * 2, ...(signal ? { signal } : {}) });
  budget?.charge(response.usage);
  const parsed = summaryOutput.safeParse(response.output);
  if (!parsed.success) throw new MemoryServiceError(`summary model output is not {text}: ${parsed.error.message.slice(0, 200)}`);
  // A summary longer than its level's bound would grow every level above it: cut it to the bound.
  const text = truncateToTokens(parsed.data.text, input.maxTokens);
  return { text, tokens: countTokens(text), inputTokens: response.usage.inputTokens, modelId: response.modelId };
}

/** The model id an audit shows for a summary written without a call. */
export const VERBATIM_MODEL_ID = 'verbatim';

/**
 * Sources as their own summary: each record or child text on dated lines
 * citing the record ("2026-11-02 [D3:5]: …", domain/summary-lines.ts; a
 * child's own dated lines kept with their ids), relative dates anchored to the
 * record's day, an assistant's lines marked as its own, and nothing that reads
 * as an instruction to the memory (as a model's summary would leave it out).
 * `cite: false` leaves every id out (a period whose ids would break its bound).
 */
export function verbatimSummary(sources: SummaryInput['sources'], cite = true): string {
  const lines: string[] = [];
  for (const source of sources) {
    for (const raw of source.text.split('\n')) {
      const line = raw.trim();
      if (!line || looksLikeInstruction(line)) continue;
      // A record's line is dated by its time and cites it; a child summary's lines carry their own dates and ids
      // (a count ladder's child has no date of its own).
      const child = parseSummaryLine(line);
      const dated = child !== undefined || !/^\d{4}-\d{2}-\d{2}/.test(source.at);
      // An assistant's words are marked as its own ("I'll remind you ..." is not the user's).
      const said = child && !cite ? formatSummaryLine({ ...child, ids: [] }) : source.role === 'assistant' ? `Assistant: ${line}` : line;
      const ids = cite && source.role !== undefined ? [source.id] : [];
      lines.push(dated ? said : formatSummaryLine({ date: source.at.slice(0, 10), ids, text: anchorRelativeDates(said, source.at) }));
    }
  }
  return lines.join('\n');
}

/**
 * Base summaries written lately, by agent and the records they summarise: a
 * day and an interaction that hold the same records (one session that day)
 * share one summary instead of two calls. Bounded; kept for the warm instance.
 */
type BaseText = Promise<{ text: string; tokens: number; inputTokens: number; modelId: string }>;
/** Per summary store (one per warm instance; one per world in tests). */
const recentBaseByStore = new WeakMap<object, Map<string, BaseText>>();
const recentBaseOf = (store: object) => {
  let recent = recentBaseByStore.get(store);
  if (!recent) recentBaseByStore.set(store, (recent = new Map()));
  return recent;
};
const RECENT_BASE_LIMIT = 256;
/** Keyed by what the records say, not only their numbers: an agent erased and begun again never gets an old text back. */
const baseKey = (agent: AgentKey, records: readonly RawRecord[]) => {
  const digest = createHash('sha256');
  for (const record of records) digest.update(`${record.sequence}\u0000${record.timestamp}\u0000${record.content}\u0000`);
  return `${agent.tenantId}/${agent.agentId}/${digest.digest('hex')}`;
};

/** Map-reduce rounds before the sources of one call are cut to fit instead (each round divides them by 6 or more). */
const MAX_SUMMARY_DEPTH = 3;

/**
 * The sources of `input` in chunks that each fit one prompt of `maxPromptTokens`;
 * one chunk when they fit. With `single`, they are cut (the longest first) to fit one.
 */
function fitSources(input: SummaryInput, maxPromptTokens: number, single: boolean): SummaryInput['sources'][] {
  const empty = renderSummaryPrompt({ ...input, sources: [] });
  const perCall = Math.max(MIN_RECORD_TOKENS_PER_CALL, maxPromptTokens - countTokens(empty.system) - countTokens(empty.user));
  const sizes = input.sources.map((source) => countTokens(source.text) + SOURCE_HEADER_TOKENS);
  if (sizes.reduce((a, b) => a + b, 0) <= perCall) return [input.sources];
  const level = Math.min(perCall, single ? waterLevel(sizes, perCall) : perCall);
  const { chunks } = cutAndPack(input.sources, sizes, level, single ? Infinity : perCall, SOURCE_TEXT, countTokens);
  return chunks;
}

const SOURCE_TEXT: TextOf<SummaryInput['sources'][number]> = { get: (source) => source.text, set: (source, text) => ({ ...source, text }) };

/** A source's line besides its text: its id, time and role. */
const SOURCE_HEADER_TOKENS = 24;

function levelBound(ladders: LadderConfig, level: number): number {
  return ladders.maxTokens[Math.min(level, ladders.maxTokens.length - 1)]!;
}

/** Whole lines kept within the bound (an extractive summary's ids counted as short ones: `summaryTokens`). */
function truncateToTokens(text: string, maxTokens: number): string {
  if (summaryTokens(text, countTokens) <= maxTokens) return text;
  const lines = text.split('\n');
  while (lines.length > 1 && summaryTokens(lines.join('\n'), countTokens) > maxTokens) lines.pop();
  return lines.join('\n');
}

/** What the ladder needs of an announced summary. */
export type Announcement = Pick<StoredSummary, 'id' | 'ladder' | 'level' | 'index' | 'origin'> & { readonly through?: number };

/**
 * One stream announcement of a single period: register the summary with its
 * parent's slot, and write the parent when every child is there. Duplicate or
 * out-of-order deliveries re-register the same id (a set) and find the parent
 * written. Returns the parent written, if any (see `climbLadder` for runs).
 */
export async function ladderStep(deps: LadderDependencies, agent: AgentKey, summary: Announcement): Promise<StoredSummary | undefined> {
  return (await climbLadder(deps, agent, summary))[0];
}

/**
 * One stream announcement, of a summary or an empty run: returns what it
 * wrote one level up (at most three items: a run and two edge parents).
 *
 * An empty run at level k (periods `index`..`through`) registers its periods
 * with the slots of the parents it only partly covers (one write each, at
 * most two), and writes the parents it wholly covers as one empty run at
 * level k+1 (a single one as an ordinary empty marker). That run is announced
 * in turn, so a silent stretch costs a bounded number of writes per level.
 */
export async function climbLadder(deps: LadderDependencies, agent: AgentKey, summary: Announcement, budget?: BatchBudget): Promise<StoredSummary[]> {
  const { ladder, level, index, origin } = summary;
  if (level >= topLevel(deps.ladders, ladder)) return [];
  const parentLevel = level + 1;
  if (summary.through === undefined || summary.through <= index) {
    const parent = parentIndex(deps.ladders, ladder, level, index, origin);
    const registered = await deps.summaries.registerChild(agent, ladder, parentLevel, parent, summary.id);
    const written = await completeParent(deps, agent, ladder, parentLevel, parent, origin, registered, budget);
    return written ? [written] : [];
  }
  const { whole, edges } = splitEmptyRun(deps.ladders, ladder, level, index, summary.through, origin);
  const written: StoredSummary[] = [];
  if (whole) {
    const run = emptyRun(deps, ladder, parentLevel, whole.first, whole.last, origin, summary.id);
    if (await deps.summaries.putSummary(agent, run)) written.push(run);
  }
  for (const edge of edges) {
    const registered = await deps.summaries.registerChild(agent, ladder, parentLevel, edge.parent, edge.children.map((child) => summaryId(ladder, level, child)));
    const parent = await completeParent(deps, agent, ladder, parentLevel, edge.parent, origin, registered, budget);
    if (parent) written.push(parent);
  }
  return written;
}

/** Writes the parent once its slot lists every child; its children inside empty runs are read as empty. */
async function completeParent(deps: LadderDependencies, agent: AgentKey, ladder: Ladder, parentLevel: number, parent: number, origin: number, registered: ReadonlySet<string>, budget?: BatchBudget): Promise<StoredSummary | undefined> {
  const level = parentLevel - 1;
  const childKeys = childIndices(deps.ladders, ladder, parentLevel, parent, origin).map((child) => ({ ladder, level, index: child }));
  if (!childKeys.every((key) => registered.has(summaryId(key.ladder, key.level, key.index)))) return undefined;

  const [existing] = await deps.summaries.getSummaries(agent, [{ ladder, level: parentLevel, index: parent }]);
  if (existing) return undefined;
  const stored = new Map((await deps.summaries.getSummaries(agent, childKeys)).map((child) => [child.index, child]));
  const missing = childKeys.filter((key) => !stored.has(key.index));
  const runs = missing.length === 0 ? [] : await deps.summaries.findEmptyRuns(agent, ladder, level, missing[0]!.index, missing.at(-1)!.index);
  const children = childKeys.map((key) => stored.get(key.index) ?? insideRun(deps, runs, ladder, level, key.index, origin));
  if (children.some((child) => child === undefined)) throw new MemoryServiceError(`slot ${ladder}:${parentLevel}:${parent} lists children that are not stored`);
  return writeParent(deps, agent, ladder, parentLevel, parent, origin, children as StoredSummary[], budget);
}

/** A period inside a stored empty run, as the empty summary it stands for (never stored itself). */
function insideRun(deps: LadderDependencies, runs: readonly StoredSummary[], ladder: Ladder, level: number, index: number, origin: number): StoredSummary | undefined {
  const run = runs.find((r) => r.index <= index && (r.through ?? r.index) >= index);
  if (!run) return undefined;
  return { ...run, id: summaryId(ladder, level, index), index, ...coveredRange(deps.ladders, ladder, level, index, origin), through: undefined };
}

function emptyRun(deps: LadderDependencies, ladder: Ladder, level: number, first: number, last: number, origin: number, from: string): StoredSummary {
  const now = (deps.now ?? (() => new Date()))().toISOString();
  const single = first === last;
  return {
    id: summaryId(ladder, level, first),
    ladder,
    level,
    index: first,
    origin,
    ...(single ? coveredRange(deps.ladders, ladder, level, first, origin) : { ...coveredRunRange(deps.ladders, ladder, level, first, last, origin), through: last }),
    // A single wholly silent parent lists its children like any other; a run names the run it was derived from.
    children: single ? childIndices(deps.ladders, ladder, level, first, origin).map((child) => summaryId(ladder, level - 1, child)) : [from],
    sources: [],
    text: '',
    tokens: 0,
    inputTokens: 0,
    empty: true,
    modelId: '',
    createdAt: now,
  };
}

async function writeParent(deps: LadderDependencies, agent: AgentKey, ladder: Ladder, level: number, index: number, origin: number, children: readonly StoredSummary[], budget?: BatchBudget): Promise<StoredSummary | undefined> {
  const range = coveredRange(deps.ladders, ladder, level, index, origin);
  const now = (deps.now ?? (() => new Date()))().toISOString();
  const base = { id: summaryId(ladder, level, index), ladder, level, index, origin, ...range, children: children.map((c) => c.id), sources: [], createdAt: now };
  const withText = children.filter((child) => !child.empty);
  const parent: StoredSummary =
    withText.length === 0
      ? { ...base, text: '', tokens: 0, inputTokens: 0, empty: true, modelId: '' }
      : {
          ...base,
          empty: false,
          ...(await summarise(deps, {
            ladder,
            level,
            ...range,
            maxTokens: levelBound(deps.ladders, level),
            sources: withText.map((child) => ({ id: child.id, at: child.from, text: child.text })),
          }, budget)),
        };
  return (await deps.summaries.putSummary(agent, parent)) ? parent : undefined;
}

/** Base periods one rebuild request may cover. */
export const MAX_REBUILD_PERIODS = 92;

/** One step of a rebuild: what it regenerated, and the job to carry on with when it stopped for time. */
export interface RebuildStep {
  readonly rebuilt: readonly string[];
  readonly next?: RebuildJob;
}

/**
 * Regenerates the base summaries of `ladder` from `first` to `last` (day
 * numbers or interaction numbers) from their raw records, then every existing
 * ancestor from its children. Idempotent: the same inputs give the same
 * summaries, and nothing is inserted, so the ladder is not triggered again.
 */
export async function rebuildSummaries(deps: SummaryDependencies, agent: AgentKey, ladder: Ladder, first: number, last: number): Promise<string[]> {
  const rebuilt: string[] = [];
  let job: RebuildJob | undefined = { kind: 'rebuild', ...agent, ladder, first, last };
  while (job) {
    const step: RebuildStep = await rebuildStep(deps, agent, job, () => true);
    rebuilt.push(...step.rebuilt);
    job = step.next;
  }
  return rebuilt;
}

/**
 * As much of a rebuild as `hasTime` allows (it is asked before each summary,
 * and at least one is regenerated per step): base periods first, in order,
 * then the ancestors level by level. The returned `next` job carries on
 * where this step stopped; none when the rebuild is complete.
 */
export async function rebuildStep(deps: SummaryDependencies, agent: AgentKey, job: RebuildJob, hasTime: () => boolean, budget?: BatchBudget): Promise<RebuildStep> {
  const now = (deps.now ?? (() => new Date()))().toISOString();
  const { ladder, first, last } = job;
  const rebuilt: string[] = [];
  const indices = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  const bases = (await deps.summaries.getSummaries(agent, indices.map((index) => ({ ladder, level: 0, index })))).sort((a, b) => a.index - b.index);
  const stop = (next: Partial<RebuildJob>): RebuildStep => ({ rebuilt, next: { kind: 'rebuild', tenantId: job.tenantId, agentId: job.agentId, ladder, first, last, ...next } });
  if (job.level === undefined) {
    for (const base of bases) {
      if (base.index < (job.next ?? first) || base.empty || !base.range) continue;
      if (rebuilt.length > 0 && !hasTime()) return stop({ next: base.index });
      const records = await deps.rawLog.getRange(agent, base.range.fromSequence, base.range.toSequence);
      const summary = await summarise(deps, {
        ladder,
        level: 0,
        from: base.from,
        to: base.to,
        maxTokens: levelBound(deps.ladders, 0),
        sources: records.map((record) => ({ id: record.id, at: record.timestamp, text: record.content, role: record.role })),
      }, budget);
      await deps.summaries.replaceSummary(agent, { ...base, ...summary, sources: records.map((r) => r.id), rebuiltAt: now });
      rebuilt.push(base.id);
    }
  }
  const origin = bases[0]?.origin ?? 0;
  // The ancestors of the range, level by level (a parent that was never written has no ancestor either).
  let affected = new Set(bases.map((b) => b.index));
  for (let level = 1; level <= topLevel(deps.ladders, ladder) && affected.size > 0; level += 1) {
    const parents = [...new Set([...affected].map((index) => parentIndex(deps.ladders, ladder, level - 1, index, origin)))].sort((a, b) => a - b);
    const existing = (await deps.summaries.getSummaries(agent, parents.map((index) => ({ ladder, level, index })))).sort((a, b) => a.index - b.index);
    affected = new Set(existing.map((p) => p.index));
    if (job.level !== undefined && level < job.level) continue;
    for (const parent of existing) {
      if (job.level === level && job.parent !== undefined && parent.index < job.parent) continue;
      const children = await deps.summaries.getSummaries(agent, childIndices(deps.ladders, ladder, level, parent.index, origin).map((index) => ({ ladder, level: level - 1, index })));
      const withText = children.filter((child) => !child.empty);
      if (withText.length === 0) continue;
      if (rebuilt.length > 0 && !hasTime()) return stop({ level, parent: parent.index });
      const summary = await summarise(deps, { ladder, level, from: parent.from, to: parent.to, maxTokens: levelBound(deps.ladders, level), sources: withText.map((child) => ({ id: child.id, at: child.from, text: child.text })) }, budget);
      await deps.summaries.replaceSummary(agent, { ...parent, ...summary, rebuiltAt: now });
      rebuilt.push(parent.id);
    }
  }
  return { rebuilt };
}
