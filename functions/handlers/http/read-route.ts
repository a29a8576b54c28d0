/**
 * The read path.
 * `GET /v1/agents/{agentId}/snapshot[?views=contacts,facts,tasks,time,count]`:
 * one GetItem (none on a cache hit), `ETag` = snapshot version,
 * `If-None-Match` answers 304.
 * `GET /v1/agents/{agentId}/context?maxTokens=N[&query=...][&contact=...][&views=...]`:
 * a budgeted, prompt-ready block built from the snapshot alone (from the
 * named views only, when `views` is given), recorded in
 * the injection log under the request id returned in `x-request-id`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { delimitMemoryBlock, memoryBlockOverhead, sanitizeContextMarkdown } from '../../domain/inert-text.js';
import { httpRouter, integerParameter, jsonResponse, type RouteRequest } from '../../commons/http.js';
import { NotFoundError, ValidationError } from '../../domain/errors.js';
import { MIN_CONTEXT_TOKENS, renderContext } from '../../domain/context.js';
import { SNAPSHOT_VIEWS, selectViews, type Snapshot, type SnapshotView } from '../../domain/snapshot.js';
import { countTokens } from '../../commons/tokens.js';
import type { SnapshotReader } from '../../use-cases/read-snapshot.js';
import type { InjectionLog } from '../../ports/injection-log.js';

export interface ReadRouteDependencies {
  readonly snapshots: SnapshotReader;
  readonly injections: InjectionLog;
  readonly now?: () => Date;
}

const MAX_CONTEXT_TOKENS = 32_000;
const DEFAULT_CONTEXT_TOKENS = 1_500;

function parseViews(value: string | undefined): SnapshotView[] {
  if (value === undefined || value === '') return [...SNAPSHOT_VIEWS];
  const views = [...new Set(value.split(',').map((view) => view.trim()))];
  const unknown = views.filter((view) => !(SNAPSHOT_VIEWS as readonly string[]).includes(view));
  if (unknown.length > 0) throw new ValidationError([{ field: 'views', rule: `must be a comma-separated list of ${SNAPSHOT_VIEWS.join(', ')}; unknown: ${unknown.join(', ')}` }]);
  return views as SnapshotView[];
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
      const views = parseViews(query.views);
      const maxTokens = isContext ? integerParameter(query.maxTokens, 'maxTokens', MIN_CONTEXT_TOKENS, MAX_CONTEXT_TOKENS, DEFAULT_CONTEXT_TOKENS) : 0;
      const search = isContext ? text(query.query, 'query', 1_000) : undefined;
      const contact = isContext ? text(query.contact, 'contact', 200) : undefined;

      const snapshot: Snapshot | undefined = await deps.snapshots.read(agent);
      if (!snapshot) throw new NotFoundError(`agent ${agent.agentId} has no snapshot (never seen, or nothing consolidated yet)`);
      const etag = `"${snapshot.version}"`;

      if (!isContext) {
        if (event.headers?.['if-none-match'] === etag) return { statusCode: 304, headers: { etag } };
        const body = bodies.get(`${agent.tenantId}/${agent.agentId}#${snapshot.version}#${views.join(',')}`, () => JSON.stringify(selectViews(snapshot, views)));
        return { statusCode: 200, headers: { 'content-type': 'application/json', etag, 'cache-control': 'private, no-cache' }, body };
      }

      const requestId = randomUUID();
      const restricted = views.length === SNAPSHOT_VIEWS.length ? snapshot : onlyViews(snapshot, views);
      // Inert and delimited: stored text is rendered harmless, and the block ends at a marker carrying a nonce it cannot know.
      const nonce = randomBytes(8).toString('hex');
      const overhead = countTokens(memoryBlockOverhead(nonce)) + 2;
      let budget = Math.max(1, maxTokens - overhead);
      const render = (budget: number) =>
        renderContext(restricted, { maxTokens: budget, ...(search ? { query: search } : {}), ...(contact ? { contact } : {}), now: now().toISOString(), countTokens });
      let rendered = render(budget);
      let markdown = delimitMemoryBlock(sanitizeContextMarkdown(rendered.markdown), nonce);
      // Token counts are not additive across joins: shrink the budget until the whole block fits.
      while (countTokens(markdown) > maxTokens && budget > 1) {
        budget = Math.max(1, budget - (countTokens(markdown) - maxTokens));
        rendered = render(budget);
        markdown = delimitMemoryBlock(sanitizeContextMarkdown(rendered.markdown), nonce);
      }
      rendered = { ...rendered, markdown, tokens: countTokens(markdown) };
      await deps.injections.record(agent, {
        requestId,
        at: now().toISOString(),
        snapshotVersion: snapshot.version,
        maxTokens,
        ...(search ? { query: search } : {}),
        ...(contact ? { contact } : {}),
        ...(restricted !== snapshot ? { views } : {}),
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
          freshness: snapshot.freshness,
          snapshotVersion: snapshot.version,
          requestId,
        },
        { etag, 'x-request-id': requestId },
      );
    };
  return httpRouter('Reader', { readSnapshot: read, readContext: read });
}
