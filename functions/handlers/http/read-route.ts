/**
 * The read path.
 * `GET /v1/agents/{agentId}/snapshot[?views=contacts,facts,tasks,time,count]`:
 * one GetItem (none on a cache hit), `ETag` = snapshot version,
 * `If-None-Match` answers 304.
 * `GET /v1/agents/{agentId}/context?maxTokens=N[&query=...][&contact=...][&project=...][&views=...]`:
 * a budgeted, prompt-ready block, recorded in the injection log under the
 * request id returned in `x-request-id`. With a query, it is recalled from
 * the agent's retrieval index (records, items and summaries of the whole
 * history; segments the snapshot lists, cached by key), each line citing
 * its ids; without one, it is built from the snapshot alone. `views`
 * restricts either to the named views (`records` is a context-only view).
 * `GET /v1/agents/{agentId}/records/{recordId}`: what a cited record id
 * stands for, redacted as every derived output, with its batch.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { markerNonce } from '../../domain/inert-text.js';
import { httpRouter, integerParameter, jsonResponse, type RouteRequest } from '../../commons/http.js';
import { NotFoundError, ValidationError } from '../../domain/errors.js';
import { PROJECT_PATTERN, PROJECT_RULE } from '../../domain/scope.js';
import { MIN_CONTEXT_TOKENS, renderContext, renderMemoryBlock, renderRecall, type RenderedContext } from '../../domain/context.js';
import type { SegmentUnit } from '../../domain/index-segment.js';
import type { RecallReader } from '../../use-cases/recall.js';
import { emptySnapshot, liveFreshness, SNAPSHOT_VIEWS, selectViews, type Snapshot, type SnapshotView } from '../../domain/snapshot.js';
import type { PendingRecords } from '../../use-cases/pending-records.js';
import { countTokens } from '../../commons/tokens.js';
import type { SnapshotReader } from '../../use-cases/read-snapshot.js';
import type { InjectionLog } from '../../ports/injection-log.js';
import { readRecord, type ReadRecordDependencies } from '../../use-cases/read-record.js';

export interface ReadRouteDependencies {
  readonly snapshots: SnapshotReader;
  readonly injections: InjectionLog;
  /** When set, queries are answered from the retrieval index the snapshot lists. */
  readonly recall?: Pick<RecallReader, 'recallWithPending'>;
  /** When set (with `recall`), a query also searches the records not consolidated yet. */
  readonly pending?: Pick<PendingRecords, 'read'>;
  /** When set, `GET …/records/{recordId}` reads one record (redacted). */
  readonly records?: ReadRecordDependencies;
  readonly now?: () => Date;
}

/** Views a context may be built from: the snapshot's, plus the raw records (index only). */
const CONTEXT_VIEWS = [...SNAPSHOT_VIEWS, 'records'] as const;
type ContextView = (typeof CONTEXT_VIEWS)[number];

const UNIT_VIEW: Record<SegmentUnit['kind'], ContextView | undefined> = { record: 'records', contact: 'contacts', fact: 'facts', task: 'tasks', summary: undefined };
const unitView = (unit: SegmentUnit): ContextView => UNIT_VIEW[unit.kind] ?? (unit.ladder === 'count' ? 'count' : 'time');

const MAX_CONTEXT_TOKENS = 32_000;
const DEFAULT_CONTEXT_TOKENS = 1_500;

function parseViews<V extends string>(value: string | undefined, known: readonly V[]): V[] {
  if (value === undefined || value === '') return [...known];
  const views = [...new Set(value.split(',').map((view) => view.trim()))];
  const unknown = views.filter((view) => !(known as readonly string[]).includes(view));
  if (unknown.length > 0) throw new ValidationError([{ field: 'views', rule: `must be a comma-separated list of ${known.join(', ')}; unknown: ${unknown.join(', ')}` }]);
  return views as V[];
}

/** The snapshot with every view not named left out (ladders as empty lists). */
function onlyViews(snapshot: Snapshot, views: readonly SnapshotView[]): Snapshot {
  const keep = (view: SnapshotView) => views.includes(view);
  const { contacts, facts, tasks, ...rest } = snapshot;
  return {
    ...rest,
    ...(keep('contacts') && contacts ? { contacts } : {}),
    ...(keep('facts') && facts ? { facts } : {}),
    ...(keep('tasks') && tasks ? { tasks } : {}),
    time: keep('time') ? snapshot.time : [],
    count: keep('count') ? snapshot.count : [],
  };
}

function text(value: string | undefined, field: string, max: number): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (value.length > max) throw new ValidationError([{ field, rule: `must be at most ${max} characters` }]);
  return value.trim();
}

/** Serialised snapshot bodies by agent, version and views: an unchanged snapshot is not serialised again. */
class BodyCache {
  private readonly bodies = new Map<string, string>();
  constructor(private readonly max = 1_000) {}
  get(key: string, build: () => string): string {
    let body = this.bodies.get(key);
    if (body === undefined) {
      body = build();
      this.bodies.set(key, body);
      if (this.bodies.size > this.max) this.bodies.delete(this.bodies.keys().next().value!);
    }
    return body;
  }
}

export function createReadHandler(deps: ReadRouteDependencies) {
  const now = deps.now ?? (() => new Date());
  const bodies = new BodyCache();
  const read = async ({ event, agent, route }: RouteRequest) => {
      const query = event.queryStringParameters ?? {};
      const isContext = route.operation === 'readContext';
      // Parameters are checked before the lookup, so a bad request costs nothing.
      const views: ContextView[] = isContext ? parseViews(query.views, CONTEXT_VIEWS) : parseViews(query.views, SNAPSHOT_VIEWS);
      const snapshotViews = views.filter((view): view is SnapshotView => view !== 'records');
      const maxTokens = isContext ? integerParameter(query.maxTokens, 'maxTokens', MIN_CONTEXT_TOKENS, MAX_CONTEXT_TOKENS, DEFAULT_CONTEXT_TOKENS) : 0;
      const search = isContext ? text(query.query, 'query', 1_000) : undefined;
      const contact = isContext ? text(query.contact, 'contact', 200) : undefined;
      const project = isContext ? text(query.project, 'project', 64) : undefined;
      if (project !== undefined && !PROJECT_PATTERN.test(project)) throw new ValidationError([{ field: 'project', rule: PROJECT_RULE }]);

      // A question also reads what was said since the last batch: the counters, and pending records not read before.
      const withPending = isContext && search !== undefined && deps.recall !== undefined && deps.pending !== undefined;
      const [stored, pending] = await Promise.all([deps.snapshots.read(agent), withPending ? deps.pending!.read(agent) : undefined]);
      const snapshot: Snapshot | undefined = stored ?? (pending && pending.records.length > 0 ? emptySnapshot(agent, pending.status, now().toISOString()) : undefined);
      if (!snapshot) throw new NotFoundError(`agent ${agent.agentId} has no snapshot (never seen, or nothing consolidated yet)`);
      const freshness = pending ? liveFreshness(snapshot.freshness, pending.status) : snapshot.freshness;
      const etag = `"${snapshot.version}"`;

      if (!isContext) {
        if (event.headers?.['if-none-match'] === etag) return { statusCode: 304, headers: { etag } };
        const body = bodies.get(`${agent.tenantId}/${agent.agentId}#${snapshot.version}#${views.join(',')}`, () => JSON.stringify(selectViews(snapshot, snapshotViews)));
        return { statusCode: 200, headers: { 'content-type': 'application/json', etag, 'cache-control': 'private, no-cache' }, body };
      }

      const requestId = randomUUID();
      const allViews = views.length === CONTEXT_VIEWS.length;
      const restricted = allViews || snapshotViews.length === SNAPSHOT_VIEWS.length ? snapshot : onlyViews(snapshot, snapshotViews);
      const pendingRecords = pending?.records ?? [];
      const recalled =
        search && deps.recall && (snapshot.index || pendingRecords.length > 0)
          ? await deps.recall.recallWithPending(snapshot.index, pendingRecords, {
              query: search,
              ...(contact ? { contact } : {}),
              ...(project ? { project } : {}),
              ...(allViews ? {} : { allow: (unit: SegmentUnit) => new Set<ContextView>(views).has(unitView(unit)) }),
              now: now().toISOString(),
              maxTokens,
            })
          : undefined;
      const render = (budget: number): RenderedContext =>
        recalled
          ? renderRecall({ ...snapshot, freshness }, recalled.ranked, { maxTokens: budget, countTokens, terms: recalled.understanding.terms, query: search })
          : renderContext(restricted, { maxTokens: budget, ...(search ? { query: search } : {}), ...(contact ? { contact } : {}), ...(project ? { project } : {}), now: now().toISOString(), countTokens });
      // Inert and delimited: stored text is rendered harmless, and the block ends at a marker carrying a nonce it cannot know.
      const rendered = renderMemoryBlock(render, { maxTokens, nonce: markerNonce(randomBytes(8)), countTokens });
      await deps.injections.record(agent, {
        requestId,
        at: now().toISOString(),
        snapshotVersion: snapshot.version,
        maxTokens,
        ...(search ? { query: search } : {}),
        ...(contact ? { contact } : {}),
        ...(project ? { project } : {}),
        ...(!allViews ? { views } : {}),
        tokens: rendered.tokens,
        items: rendered.included,
      });
      return jsonResponse(
        200,
        {
          markdown: rendered.markdown,
          tokens: rendered.tokens,
          maxTokens,
          items: rendered.included,
          omitted: rendered.omitted,
          freshness,
          snapshotVersion: snapshot.version,
          requestId,
        },
        { etag, 'x-request-id': requestId },
      );
    };
  return httpRouter('Reader', {
    readSnapshot: read,
    readContext: read,
    readRecord: async ({ event, agent }) => {
      if (!deps.records) throw new NotFoundError('records are not readable here');
      return jsonResponse(200, await readRecord(deps.records, agent, event.pathParameters?.recordId ?? ''));
    },
  });
}
