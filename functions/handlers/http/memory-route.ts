/**
 * `GET /v1/agents/{agentId}/contacts|facts|tasks`: a store, page by page
 * (`limit` 1-100, default 50; `nextToken` from the previous page;
 * `status=active|draft|conflict|archived` keeps one status, so
 * `?status=archived` shows what was archived or forgotten).
 * `GET /v1/agents/{agentId}/audit?batch=N`: the patches applied for batch N,
 * with before and after of every changed item.
 * `GET /v1/agents/{agentId}/summaries?ladder=time|count[&level=N]`: a
 * ladder's summaries (every level when `level` is omitted), page by page.
 * `GET /v1/agents/{agentId}/items/{itemId}/history`: every version of an item
 * with the batch and patch that made it (from the audit log).
 * `GET /v1/agents/{agentId}/injections/{requestId}`: what a context response
 * injected (item ids and versions).
 */
import { httpRouter, integerParameter, jsonResponse, type RouteRequest } from '../../commons/http.js';
import { NotFoundError, ValidationError } from '../../domain/errors.js';
import { UPDATERS, type ItemStatus, type UpdaterName } from '../../domain/memory.js';
import { itemHistory } from '../../use-cases/item-history.js';
import type { MemoryRevisions } from '../../ports/memory-store.js';

const ITEM_STATUSES: readonly ItemStatus[] = ['active', 'draft', 'conflict', 'archived'];
import type { MemoryStore } from '../../ports/memory-store.js';
import type { SummaryStore } from '../../ports/summary-store.js';
import type { InjectionLog } from '../../ports/injection-log.js';
import { LEVEL_NAMES, topLevel, type LadderConfig } from '../../domain/ladders.js';
import type { PageTokenSeal } from '../../commons/page-tokens.js';

export interface MemoryRouteDependencies {
  readonly memory: MemoryStore & Pick<MemoryRevisions, 'listAudit'>;
  readonly injections: InjectionLog;
  readonly summaries: SummaryStore;
  readonly ladders: LadderConfig;
  readonly pageTokens: PageTokenSeal;
}

export function createMemoryHandler(deps: MemoryRouteDependencies) {
  const listStore = (updater: UpdaterName) => async ({ event, agent }: RouteRequest) => {
    const query = event.queryStringParameters ?? {};
    const limit = integerParameter(query.limit, 'limit', 1, 100, 50);
    const status = query.status;
    if (status !== undefined && !ITEM_STATUSES.includes(status as ItemStatus)) throw new ValidationError([{ field: 'status', rule: `must be one of ${ITEM_STATUSES.join(', ')}` }]);
    // A token continues one list: this store, with this status filter.
    const list = `items:${updater}:${status ?? ''}`;
    const nextToken = query.nextToken ? await deps.pageTokens.open(agent, list, query.nextToken) : undefined;
    const page = await deps.memory.listItems(agent, updater, { limit, ...(nextToken ? { nextToken } : {}), ...(status ? { status: status as ItemStatus } : {}) });
    return jsonResponse(200, { items: page.items, ...(page.nextToken ? { nextToken: await deps.pageTokens.seal(agent, list, page.nextToken) } : {}) });
  };
  return httpRouter('MemoryReader', {
    listContacts: listStore('contacts'),
    listFacts: listStore('facts'),
    listTasks: listStore('tasks'),
    readInjection: async ({ event, agent }) => {
      const requestId = event.pathParameters?.requestId ?? '';
      const injection = await deps.injections.read(agent, requestId);
      if (!injection) throw new NotFoundError(`no context response ${requestId} for agent ${agent.agentId}`);
      return jsonResponse(200, injection);
    },
    listSummaries: async ({ event, agent }) => {
      const query = event.queryStringParameters ?? {};
      const ladder = query.ladder;
      if (ladder !== 'time' && ladder !== 'count') throw new ValidationError([{ field: 'ladder', rule: 'is required: time or count' }]);
      const top = topLevel(deps.ladders, ladder);
      const level = query.level === undefined ? undefined : integerParameter(query.level, 'level', 0, top);
      const limit = integerParameter(query.limit, 'limit', 1, 100, 50);
      const list = `summaries:${ladder}:${level ?? ''}`;
      const nextToken = query.nextToken ? await deps.pageTokens.open(agent, list, query.nextToken) : undefined;
      const page = await deps.summaries.listSummaries(agent, ladder, level, { limit, ...(nextToken ? { nextToken } : {}) });
      return jsonResponse(200, {
        items: page.items.map((s) => ({ id: s.id, ladder: s.ladder, level: s.level, name: LEVEL_NAMES[s.ladder][s.level], from: s.from, to: s.to, ...(s.through !== undefined ? { through: s.through } : {}), children: s.children, sources: s.sources, text: s.text, tokens: s.tokens, empty: s.empty, createdAt: s.createdAt, ...(s.rebuiltAt ? { rebuiltAt: s.rebuiltAt } : {}) })),
        ...(page.nextToken ? { nextToken: await deps.pageTokens.seal(agent, list, page.nextToken) } : {}),
      });
    },
    readItemHistory: async ({ event, agent }) => jsonResponse(200, await itemHistory(deps.memory, agent, event.pathParameters?.itemId ?? '')),
    readAudit: async ({ event, agent }) => {
      const batch = integerParameter(event.queryStringParameters?.batch, 'batch', 1, Number.MAX_SAFE_INTEGER);
      const entries = (await Promise.all(UPDATERS.map((updater) => deps.memory.readAudit(agent, batch, updater)))).filter(Boolean);
      if (entries.length === 0) throw new NotFoundError(`no patch applied for batch ${batch} of agent ${agent.agentId}`);
      return jsonResponse(200, { batch, entries });
    },
  });
}
