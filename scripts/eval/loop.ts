/**
 * The note lifecycle loop (docs/EVAL.md, "The note lifecycle loop"): the
 * lifecycle scenario replayed batch by batch through the HTTP API for two
 * agents, one whose simulated user gives feedback on the context lines it is
 * shown (`wrong` for a value it knows was a mistake, `outdated` for one that
 * has been superseded, `helpful` for the right value of what it asked) and one
 * without feedback. After every batch each open question of the scenario is
 * asked through `GET /context` and every item line of the answer is judged
 * against the ground truth of that moment. From those answers: correction
 * capability (explicit corrections and `wrong` feedback), stale hit rate,
 * conflict residual rate at the end, volume per 1,000 messages as the history
 * grows, and context precision per stage with feedback and without.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LocalStack } from '../../local/local-stack.js';
import { createApiKey } from '../../functions/use-cases/api-keys.js';
import { countTokens } from '../../functions/commons/tokens.js';
import { mapWithConcurrency } from '../../functions/commons/concurrency.js';
import { lifecycleScenario, truthAt, type CaseKind, type LoopCase, type LoopEvent, type LoopScenario, type LoopScenarioOptions } from '../corpus/lifecycle-scenario.js';
import { ApiClient, type ContextResponse } from './api-client.js';
import { Bm25Baseline } from './baselines.js';
import type { CorpusTurn } from './corpus.js';
import { mentions } from './metrics.js';
import { currentStateText, presentsAsCurrent } from './scoring.js';

/** Every loop question is asked at this budget. */
export const LOOP_BUDGET = 1024;
/** The reader caches a snapshot for up to 1 s (SNAPSHOT_CACHE_MS): a feedback change is read after this. */
const SNAPSHOT_CACHE_WAIT_MS = 1_200;

export interface LoopOptions {
  readonly scenario?: LoopScenarioOptions;
  /** Scenario pairs (two agents each, with and without feedback), seeds `seed`, `seed + 1`, … @default 1 */
  readonly pairs?: number;
  readonly log?: (line: string) => void;
  /** How long one batch may take to be consolidated. @default 5 min */
  readonly settleTimeoutMs?: number;
}

/** An item as the list endpoints return it (the fields the loop reads). */
interface StoredItem {
  readonly id: string;
  readonly kind: 'contact' | 'fact' | 'task';
  readonly status: string;
  readonly verification?: string;
  readonly evidence?: readonly { recordId: string }[];
  readonly statement?: string;
  readonly table?: string;
  readonly row?: Record<string, string | null>;
  readonly name?: string;
  readonly organisation?: string;
  readonly role?: string;
  readonly biography?: string;
  readonly summary?: string;
  readonly title?: string;
}

/** Shown to the agent: not archived and not refuted. */
const live = (item: StoredItem) => item.status !== 'archived' && item.verification !== 'refuted';
/** What an item says is current (its history, a contact's running summary, is not). */
const currentText = (item: StoredItem) =>
  [item.statement, item.row ? Object.values(item.row).filter(Boolean).join(' ') : undefined, item.organisation, item.role, item.biography, item.title].filter(Boolean).join(' | ');

/** One question asked of one agent after one batch. */
export interface AskedQuestion {
  readonly pair: number;
  readonly agent: 'feedback' | 'plain';
  readonly stage: number;
  readonly caseId: string;
  readonly kind: CaseKind;
  /** The right or new value has been said by this stage (the answer changed during the history). */
  readonly afterChange: boolean;
  /** A value the ground truth holds untrue at this stage is presented as current (outside the dated history). */
  readonly untrueShown: boolean;
  /** …and every current-state line that shows it is marked as conflicting or unverified. */
  readonly untrueShownFlagged: boolean;
  /** The value true at this stage is in the current-state sections. */
  readonly currentShown: boolean | null;
  /** Item lines (contacts, tasks, facts) of the context, and how many show no untrue value. */
  readonly itemLines: number;
  readonly correctItemLines: number;
  /** Items the user had refuted, still refuted in the store, that this context included anyway (must stay 0). */
  readonly refutedIncluded: readonly string[];
  /** BM25 over the raw turns replayed so far, same budget: an untrue value present. Same for both agents. */
  readonly bm25UntrueShown: boolean;
  /** The current-state lines that show an untrue value of this case: what to look at when a figure is off. */
  readonly untrueLines: readonly string[];
  /** A value untrue at this stage is shown anywhere in the block (items, records, summaries, contact lines) unmarked. */
  readonly staleAnywhere: boolean;
  /** The same, for BM25 over the raw turns (which marks nothing). */
  readonly bm25StaleAnywhere: boolean;
  /** The block's lines that show an untrue value unmarked. */
  readonly staleLines: readonly string[];
}

/** The markers a line carries when the value it states no longer holds (functions/domain/supersession.ts), or is in question. */
const RETIRED_MARK = /\((?:marked wrong on|no longer true since|later: |superseded on|contested: later said )|⚠ conflicting record/;

/**
 * Lines of a block that show one of `untrue` with nothing saying it no longer
 * holds: not marked, not ruled out in the same breath ("Utrecht, not Lyon"),
 * and not the line that states the value which replaced it (the correction).
 */
export function staleLines(markdown: string, untrue: readonly string[], current: string | undefined): string[] {
  return markdown
    .split('\n')
    .filter((line) => line.startsWith('- ') && untrue.some((value) => presentsAsCurrent(line, value)))
    .filter((line) => !RETIRED_MARK.test(line) && !(current !== undefined && mentions(line, current)));
}

export interface StagePoint {
  readonly pair: number;
  readonly agent: 'feedback' | 'plain';
  readonly stage: number;
  readonly messages: number;
  readonly activeItems: number;
  /** Tokens of the live items' current text and every summary. */
  readonly storedTokens: number;
  /** Keys the ground truth knows by now (one item each would be a perfect store). */
  readonly knownKeys: number;
  readonly historyTokens: number;
}

export interface FeedbackGiven {
  readonly pair: number;
  readonly stage: number;
  readonly itemId: string;
  readonly outcome: 'helpful' | 'wrong' | 'outdated';
  readonly effect: string;
}

export interface CorrectionCase {
  readonly pair: number;
  readonly caseId: string;
  readonly style: string;
  /** The wrong value was held by a live item before the correction (the store's state, the baseline). */
  readonly plantedInStore: boolean;
  /** …and presented as current in the context before the correction. */
  readonly shownBefore: boolean;
  /** Presented as current after one batch (explicit: the correction's batch; feedback: the next batch). */
  readonly shownAfterOneBatch: boolean;
  /** Feedback only: presented as current right after the feedback, before any further batch. */
  readonly shownRightAfter?: boolean;
  /** Presented as current at any later stage. */
  readonly shownLater: boolean;
  /** The right value presented after one batch; null when it has not been said by then. */
  readonly rightShownAfterOneBatch: boolean | null;
  /** The same case in the agent without feedback, after the same batch (feedback cases only). */
  readonly withoutFeedbackShownAfterOneBatch?: boolean;
}

export interface ConflictCount {
  readonly pair: number;
  readonly agent: 'feedback' | 'plain';
  readonly activeItems: number;
  readonly conflicting: number;
  /** The groups: key → the values held. */
  readonly groups: readonly { key: string; values: readonly string[] }[];
  /** Scenario cases with a live item presenting each of two different values. */
  readonly casesWithBothValuesLive: number;
}

export interface LoopResult {
  readonly scenario: { pairs: number; batches: number; messagesPerAgent: number; cases: number; casesByKind: Record<CaseKind, number> };
  readonly budget: number;
  readonly asked: readonly AskedQuestion[];
  readonly points: readonly StagePoint[];
  readonly feedback: readonly FeedbackGiven[];
  readonly explicit: readonly CorrectionCase[];
  readonly wrongFeedback: readonly CorrectionCase[];
  readonly conflicts: readonly ConflictCount[];
  /** An append-only store (every statement its own item): its conflicting share, from the ground truth. */
  readonly appendOnlyConflictRate: number;
  /** Context lines judged wrong for which no included item could be named (feedback could not be given). */
  readonly unmappedWrongLines: number;
  readonly seconds: number;
}

interface AgentState {
  readonly pair: number;
  readonly agent: 'feedback' | 'plain';
  readonly agentId: string;
  readonly scenario: LoopScenario;
  readonly refuted: Set<string>;
  readonly confirmed: Set<string>;
  posted: number;
}

/** The item lines of a context's current-state sections, with their section's item kind. */
export function itemLines(markdown: string): { kind: 'contact' | 'fact' | 'task'; line: string }[] {
  const out: { kind: 'contact' | 'fact' | 'task'; line: string }[] = [];
  let kind: 'contact' | 'fact' | 'task' | undefined;
  for (const line of currentStateText(markdown).split('\n')) {
    if (line.startsWith('### ')) kind = line.startsWith('### Contacts') ? 'contact' : line.startsWith('### Facts') ? 'fact' : line.startsWith('### Tasks') ? 'task' : undefined;
    else if (kind && line.startsWith('- ')) out.push({ kind, line });
  }
  return out;
}

const normal = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** The included item a line renders: same kind, cites its evidence, and (contacts) its name or (facts) its statement. */
function lineItem(line: { kind: string; line: string }, included: readonly StoredItem[]): StoredItem | undefined {
  const cited = new Set((/^- \[([^\]]*)\]/.exec(line.line)?.[1] ?? '').split(/[·,]/).map((part) => part.trim()).filter(Boolean));
  const text = normal(line.line);
  const candidates = included.filter((item) => item.kind === line.kind);
  const named = (item: StoredItem) => (item.kind === 'contact' ? line.line.includes(`**${item.name}**`) : item.statement ? text.includes(normal(item.statement).slice(0, 40)) : item.title ? text.includes(normal(item.title)) : false);
  const cites = (item: StoredItem) => (item.evidence ?? []).some((e) => cited.has(e.recordId));
  return candidates.find((item) => named(item) && cites(item)) ?? candidates.find(named) ?? (candidates.filter(cites).length === 1 ? candidates.find(cites) : undefined);
}

export async function runLoopEvaluation(stack: Pick<LocalStack, 'url' | 'eventSources' | 'keys'>, options: LoopOptions = {}): Promise<LoopResult> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const api = new ApiClient(stack.url, (await createApiKey(stack.keys, { tenantId: 'default', scopes: ['read', 'write', 'admin'], description: 'eval loop' })).key);
  const run = randomBytes(3).toString('hex');
  const pairs = Math.max(1, options.pairs ?? 1);
  const agents: AgentState[] = [];
  for (let pair = 1; pair <= pairs; pair += 1) {
    const scenario = lifecycleScenario({ ...options.scenario, seed: (options.scenario?.seed ?? 15) + pair - 1 });
    for (const agent of ['feedback', 'plain'] as const) agents.push({ pair, agent, agentId: `loop-${run}-${pair}-${agent}`, scenario, refuted: new Set(), confirmed: new Set(), posted: 0 });
  }
  const scenario0 = agents[0]!.scenario;
  const batches = scenario0.batches.length;
  log(`loop: ${pairs} scenario pair(s), ${batches} batches, ${scenario0.batches.flat().length} messages and ${scenario0.cases.length} cases per agent, ${agents.length} agents`);

  const asked: AskedQuestion[] = [];
  const points: StagePoint[] = [];
  const feedback: FeedbackGiven[] = [];
  let unmappedWrongLines = 0;
  /** Per pair, case and stage: the feedback agent's answer right after its feedback (feedback cases). */
  const rightAfter = new Map<string, boolean>();
  /** Per agent and stage: whether the case's first value was held by a live item. */
  const heldInStore = new Map<string, boolean>();

  for (let stage = 1; stage <= batches; stage += 1) {
    const stageStart = Date.now();
    for (const state of agents) {
      const events = state.scenario.batches[stage - 1]!;
      for (let i = 0; i < events.length; i += 100) await api.call('POST', `/v1/agents/${state.agentId}/events`, { events: events.slice(i, i + 100) });
      state.posted += events.length;
      await api.call('POST', `/v1/agents/${state.agentId}/flush`);
    }
    await settle(api, stack, agents, options.settleTimeoutMs ?? 300_000);

    for (const state of agents) {
      const { items, summaries } = await readStore(api, state.agentId);
      const byId = new Map(items.map((item) => [item.id, item]));
      const liveItems = items.filter(live);
      const replayed = state.scenario.batches.slice(0, stage).flat();
      points.push({
        pair: state.pair,
        agent: state.agent,
        stage,
        messages: state.posted,
        activeItems: liveItems.length,
        storedTokens: countTokens([...liveItems.map(currentText), ...summaries].join('\n')),
        knownKeys: state.scenario.cases.filter((c) => c.firstBatch <= stage).length,
        historyTokens: countTokens(replayed.map((e) => e.content).join('\n')),
      });
      for (const c of state.scenario.cases) heldInStore.set(`${state.agentId}|${c.id}|${stage}`, liveItems.some((item) => presentsAsCurrent(currentText(item), c.firstValue)));

      const untrueNow = state.scenario.cases.flatMap((c) => truthAt(c, stage).untrue.map((value) => ({ value, kind: c.kind })));
      const bm25 = new Bm25Baseline(replayed.map((event, i) => corpusTurn(event, i, state.scenario.user)));
      const open = state.scenario.cases.filter((c) => c.firstBatch <= stage);
      const answers = await mapWithConcurrency(open, 4, async (c) => ({ c, context: await api.context(state.agentId, c.question, LOOP_BUDGET) }));
      const toGive = new Map<string, { outcome: 'helpful' | 'wrong' | 'outdated'; injectionId: string }>();
      for (const { c, context } of answers) {
        const judged = judge(c, stage, context, byId, untrueNow);
        const bm25Text = bm25.context(c.question, LOOP_BUDGET).markdown;
        const truth = truthAt(c, stage);
        const stale = staleLines(context.markdown, truth.untrue, truth.current);
        asked.push({
          pair: state.pair,
          agent: state.agent,
          stage,
          caseId: c.id,
          kind: c.kind,
          afterChange: c.changeBatch !== undefined && stage >= c.changeBatch,
          ...judged.scores,
          // Refuted and still refuted in the store: an item the store replaced by a later record (a refuted
          // contact given its new employer) is shown again by design, with the new value.
          refutedIncluded: context.items.map((i) => i.id).filter((id) => state.refuted.has(id) && byId.get(id)?.verification === 'refuted'),
          bm25UntrueShown: truth.untrue.some((value) => presentsAsCurrent(bm25Text, value)),
          staleAnywhere: stale.length > 0,
          bm25StaleAnywhere: staleLines(bm25Text, truth.untrue, truth.current).length > 0,
          staleLines: stale,
        });
        if (state.agent !== 'feedback') continue;
        // The simulated user reads the item lines it was given and says what it knows.
        for (const line of judged.lines) {
          if (!line.item) {
            if (line.untrue) unmappedWrongLines += 1;
            continue;
          }
          const injectionId = context.requestId!;
          if (line.untrue) toGive.set(line.item.id, { outcome: line.untrue === 'change' ? 'outdated' : 'wrong', injectionId });
          else if (line.showsCurrent && !state.confirmed.has(line.item.id) && !toGive.has(line.item.id)) toGive.set(line.item.id, { outcome: 'helpful', injectionId });
        }
      }
      for (const [itemId, { outcome, injectionId }] of toGive) {
        const response = await api.call<{ effect: string }>('POST', `/v1/agents/${state.agentId}/feedback`, { itemId, outcome, injectionId, note: 'eval loop: simulated user' });
        feedback.push({ pair: state.pair, stage, itemId, outcome, effect: response.effect });
        if (outcome === 'wrong') state.refuted.add(itemId);
        if (outcome === 'helpful') {
          state.confirmed.add(itemId);
          state.refuted.delete(itemId);
        }
      }
      if (state.agent === 'feedback' && toGive.size > 0) {
        // Right after the feedback, before any further batch: the cases whose wrong value was just reported.
        await sleep(SNAPSHOT_CACHE_WAIT_MS);
        for (const c of open.filter((c) => c.kind === 'feedback')) {
          const context = await api.context(state.agentId, c.question, LOOP_BUDGET);
          rightAfter.set(`${state.pair}|${c.id}|${stage}`, presentsAsCurrent(currentStateText(context.markdown), c.firstValue));
        }
      }
    }
    log(`loop stage ${stage}/${batches}: ${((Date.now() - stageStart) / 1000).toFixed(1)} s`);
  }

  // Conflicts left at the end.
  const conflicts: ConflictCount[] = [];
  for (const state of agents) {
    const { items } = await readStore(api, state.agentId);
    conflicts.push(conflictsOf(state, items.filter(live)));
  }

  const find = (pair: number, agent: 'feedback' | 'plain', caseId: string, stage: number) => asked.find((a) => a.pair === pair && a.agent === agent && a.caseId === caseId && a.stage === stage);
  const agentIdOf = (pair: number, agent: 'feedback' | 'plain') => agents.find((a) => a.pair === pair && a.agent === agent)!.agentId;
  const explicit: CorrectionCase[] = [];
  const wrongFeedback: CorrectionCase[] = [];
  for (let pair = 1; pair <= pairs; pair += 1) {
    const { cases } = agents.find((a) => a.pair === pair)!.scenario;
    // (a) explicit corrections, in the agent without feedback (nothing but the message corrects it).
    for (const c of cases.filter((c) => c.kind === 'explicit')) {
      const before = find(pair, 'plain', c.id, c.changeBatch! - 1);
      const after = find(pair, 'plain', c.id, c.changeBatch!);
      if (!before || !after) continue;
      explicit.push({
        pair,
        caseId: c.id,
        style: c.style,
        plantedInStore: heldInStore.get(`${agentIdOf(pair, 'plain')}|${c.id}|${c.changeBatch! - 1}`) ?? false,
        shownBefore: before.untrueShown,
        shownAfterOneBatch: after.untrueShown,
        shownLater: asked.some((a) => a.pair === pair && a.agent === 'plain' && a.caseId === c.id && a.stage > c.changeBatch! && a.untrueShown),
        rightShownAfterOneBatch: after.currentShown,
      });
    }
    // (b) wrong feedback: the first stage the wrong value was shown to the user with feedback, then one batch later.
    for (const c of cases.filter((c) => c.kind === 'feedback')) {
      const first = asked.filter((a) => a.pair === pair && a.agent === 'feedback' && a.caseId === c.id && a.untrueShown).sort((a, b) => a.stage - b.stage)[0];
      const stage = first?.stage ?? c.firstBatch;
      const next = find(pair, 'feedback', c.id, stage + 1);
      if (!next) continue;
      wrongFeedback.push({
        pair,
        caseId: c.id,
        style: c.style,
        plantedInStore: heldInStore.get(`${agentIdOf(pair, 'feedback')}|${c.id}|${stage}`) ?? false,
        shownBefore: first !== undefined,
        shownRightAfter: rightAfter.get(`${pair}|${c.id}|${stage}`) ?? false,
        shownAfterOneBatch: next.untrueShown,
        shownLater: asked.some((a) => a.pair === pair && a.agent === 'feedback' && a.caseId === c.id && a.stage > stage + 1 && a.untrueShown),
        rightShownAfterOneBatch: next.currentShown,
        withoutFeedbackShownAfterOneBatch: find(pair, 'plain', c.id, stage + 1)?.untrueShown ?? false,
      });
    }
  }

  const kinds: CaseKind[] = ['explicit', 'feedback', 'change', 'stable'];
  return {
    scenario: {
      pairs,
      batches,
      messagesPerAgent: scenario0.batches.flat().length,
      cases: scenario0.cases.length,
      casesByKind: Object.fromEntries(kinds.map((k) => [k, scenario0.cases.filter((c) => c.kind === k).length])) as Record<CaseKind, number>,
    },
    budget: LOOP_BUDGET,
    asked,
    points,
    feedback,
    explicit,
    wrongFeedback,
    conflicts,
    appendOnlyConflictRate: appendOnlyConflicts(agents.filter((a) => a.agent === 'plain').map((a) => a.scenario)),
    unmappedWrongLines,
    seconds: (Date.now() - started) / 1000,
  };
}

function corpusTurn(event: LoopEvent, i: number, user: string): CorpusTurn {
  return { id: event.id, speaker: event.role === 'user' ? user : 'Assistant', role: event.role, text: event.content, named: false, at: event.timestamp, session: Number(event.interactionId.replace(/\D/g, '')) || i };
}

/** A context judged against the ground truth of `stage`. */
function judge(c: LoopCase, stage: number, context: ContextResponse, byId: ReadonlyMap<string, StoredItem>, untrueNow: readonly { value: string; kind: CaseKind }[]) {
  const truth = truthAt(c, stage);
  const current = currentStateText(context.markdown);
  const included = context.items.map((i) => byId.get(i.id)).filter((item): item is StoredItem => item !== undefined);
  const lines = itemLines(context.markdown).map((line) => {
    const untrue = untrueNow.find(({ value }) => presentsAsCurrent(line.line, value));
    return {
      ...line,
      item: lineItem(line, included),
      untrue: untrue?.kind,
      flagged: /⚠ conflicting record|\(unverified\)/.test(line.line),
      showsCurrent: truth.current !== undefined && mentions(line.line, truth.current),
    };
  });
  const showing = lines.filter((line) => truth.untrue.some((value) => presentsAsCurrent(line.line, value)));
  const untrueShown = truth.untrue.some((value) => presentsAsCurrent(current, value));
  return {
    lines,
    scores: {
      untrueLines: showing.map((line) => line.line),
      untrueShown,
      untrueShownFlagged: untrueShown && showing.length > 0 && showing.every((line) => line.flagged),
      currentShown: truth.current === undefined ? null : mentions(current, truth.current),
      itemLines: lines.length,
      correctItemLines: lines.filter((line) => !line.untrue).length,
    },
  };
}

async function readStore(api: ApiClient, agentId: string): Promise<{ items: StoredItem[]; summaries: string[] }> {
  const lists = await Promise.all(['contacts', 'facts', 'tasks'].map((store) => api.listAll(`/v1/agents/${agentId}/${store}`)));
  const summaries = [...(await api.listAll(`/v1/agents/${agentId}/summaries?ladder=time`)), ...(await api.listAll(`/v1/agents/${agentId}/summaries?ladder=count`))];
  return { items: lists.flat() as unknown as StoredItem[], summaries: summaries.filter((s) => !s.empty).map((s) => s.text ?? '') };
}

/** Flush is done; wait until every agent's records are consolidated, the consumers idle and the snapshot current. */
async function settle(api: ApiClient, stack: Pick<LocalStack, 'eventSources'>, agents: readonly AgentState[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const statuses = await Promise.all(agents.map((a) => api.call<{ lastSequence: number; lastConsolidatedSequence: number }>('GET', `/v1/agents/${a.agentId}/status`)));
    if (statuses.every((s) => s.lastConsolidatedSequence >= s.lastSequence)) break;
    if (Date.now() > deadline) throw new Error(`loop: consolidation did not catch up in time: ${JSON.stringify(statuses)}`);
    await sleep(200);
  }
  await stack.eventSources.waitForIdle(Math.max(1_000, deadline - Date.now()));
  for (const agent of agents) {
    for (;;) {
      const snapshot = await api.call<{ freshness?: { lastConsolidatedSequence: number; lastIngestedSequence: number } }>('GET', `/v1/agents/${agent.agentId}/snapshot`);
      if (snapshot.freshness && snapshot.freshness.lastConsolidatedSequence >= snapshot.freshness.lastIngestedSequence) break;
      if (Date.now() > deadline) throw new Error(`loop: the snapshot of ${agent.agentId} did not catch up`);
      await sleep(200);
    }
  }
}

/**
 * Live items of one key that contradict each other: facts of the same table,
 * subject and attribute with different values; contacts of the same name with
 * different employers; and items marked `conflict`.
 */
function conflictsOf(state: AgentState, items: readonly StoredItem[]): ConflictCount {
  const groups = new Map<string, StoredItem[]>();
  for (const item of items) {
    const key =
      item.kind === 'fact' && item.row
        ? `fact:${normal(item.table ?? '')}|${normal(item.row.subject ?? '')}|${normal(item.row.attribute ?? '')}`
        : item.kind === 'contact' && item.name
          ? `contact:${normal(item.name)}`
          : undefined;
    if (!key) continue;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  const valueOf = (item: StoredItem) => normal(item.kind === 'fact' ? (item.row?.value ?? '') : (item.organisation ?? ''));
  const conflicting = new Set<string>(items.filter((item) => item.status === 'conflict').map((item) => item.id));
  const reported: { key: string; values: string[] }[] = [];
  for (const [key, members] of groups) {
    const values = [...new Set(members.map(valueOf).filter(Boolean))];
    if (values.length < 2) continue;
    reported.push({ key, values });
    for (const member of members) conflicting.add(member.id);
  }
  const casesWithBothValuesLive = state.scenario.cases.filter(
    (c) => c.firstValue !== c.finalValue && items.some((i) => presentsAsCurrent(currentText(i), c.firstValue)) && items.some((i) => presentsAsCurrent(currentText(i), c.finalValue)),
  ).length;
  return { pair: state.pair, agent: state.agent, activeItems: items.length, conflicting: conflicting.size, groups: reported, casesWithBothValuesLive };
}

/** Every value-stating line its own item, nothing superseded: the share of items that contradict another of their key. */
function appendOnlyConflicts(scenarios: readonly LoopScenario[]): number {
  let items = 0;
  let conflicting = 0;
  for (const scenario of scenarios) {
    for (const c of scenario.cases) {
      items += c.lines.length;
      if (new Set(c.lines.map((l) => l.value)).size > 1) conflicting += c.lines.length;
    }
  }
  return items === 0 ? 0 : conflicting / items;
}
