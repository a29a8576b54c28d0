/**
 * Everything the service holds for one agent, as NDJSON lines: the agent's
 * status, every raw record (the evidence; holes as such), every item of each
 * store with its history (archived and refuted ones too), every summary of
 * both ladders, and every audit entry, then a last line counting what came
 * before it, so a reader can tell a complete export from a cut one.
 *
 * An HTTP response has a size limit (6 MB behind API Gateway), so the export
 * comes in parts: each line carries the cursor that resumes after it, and the
 * route ends a part with a `continue` line holding that cursor as a token.
 * Resuming never re-reads what an earlier part sent: records resume by
 * sequence, items and summaries by page token and position.
 */
import { z } from 'zod';
import type { AgentKey } from '../domain/agent-key.js';
import { NotFoundError, ValidationError } from '../domain/errors.js';
import { UPDATERS } from '../domain/memory.js';
import type { MemoryRevisions, MemoryStore } from '../ports/memory-store.js';
import type { AgentLedger, RawLog } from '../ports/pipeline.js';
import type { SummaryStore } from '../ports/summary-store.js';

export interface ExportDependencies {
  readonly ledger: Pick<AgentLedger, 'readStatus'>;
  readonly rawLog: Pick<RawLog, 'readRange'>;
  readonly memory: Pick<MemoryStore, 'listItems'> & Pick<MemoryRevisions, 'listAudit'>;
  readonly summaries: Pick<SummaryStore, 'listSummaries'>;
  readonly now?: () => Date;
}

export type ExportLine =
  | { readonly type: 'agent'; readonly agentId: string; readonly exportedAt: string; readonly status: unknown }
  | { readonly type: 'record'; readonly record: unknown }
  | { readonly type: 'hole'; readonly sequence: number }
  | { readonly type: 'item'; readonly updater: string; readonly item: unknown }
  | { readonly type: 'summary'; readonly summary: unknown }
  | { readonly type: 'audit'; readonly audit: unknown }
  | { readonly type: 'end'; readonly counts: Readonly<Record<string, number>> };

const cursorSchema = z.strictObject({
  /** 1 records, 2 items, 3 summaries, 4 audit, 5 end. */
  section: z.number().int().min(1).max(5),
  /** Records: the next sequence. Items and summaries: the updater or ladder index. Audit: entries already sent. */
  at: z.number().int().min(0),
  /** The page token of the page being read, and how many of its entries were sent. */
  token: z.string().max(4_096).optional(),
  skip: z.number().int().min(0).default(0),
  counts: z.record(z.string(), z.number().int().min(0)),
});
export type ExportCursor = z.infer<typeof cursorSchema>;

export function encodeExportCursor(cursor: ExportCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

export function decodeExportCursor(token: string): ExportCursor {
  try {
    return cursorSchema.parse(JSON.parse(Buffer.from(token, 'base64url').toString('utf8')));
  } catch {
    throw new ValidationError([{ field: 'nextToken', rule: 'must be a token from an earlier part of this export' }]);
  }
}

const RECORD_PAGE = 200;
const PAGE = 100;
const LADDERS = ['time', 'count'] as const;

/** The export's lines from `cursor` on (from the start without one), each with the cursor that resumes after it. */
export async function* exportAgent(deps: ExportDependencies, agent: AgentKey, cursor?: ExportCursor): AsyncGenerator<{ line: ExportLine; resume: ExportCursor }> {
  const status = await deps.ledger.readStatus(agent);
  if (!status) throw new NotFoundError(`agent ${agent.agentId} has no events`);
  const counts: Record<string, number> = { record: 0, hole: 0, item: 0, summary: 0, audit: 0, ...(cursor?.counts ?? {}) };
  const at = (section: number, position: number, token?: string, skip = 0): ExportCursor => ({ section, at: position, ...(token ? { token } : {}), skip, counts: { ...counts } });
  if (!cursor) yield { line: { type: 'agent', agentId: agent.agentId, exportedAt: (deps.now ?? (() => new Date()))().toISOString(), status }, resume: at(1, 1) };
  const start = cursor ?? at(1, 1);

  if (start.section <= 1) {
    for (let from = start.section === 1 ? start.at : 1; from <= status.lastSequence; from += RECORD_PAGE) {
      const to = Math.min(status.lastSequence, from + RECORD_PAGE - 1);
      const { records, holes } = await deps.rawLog.readRange(agent, from, to);
      const lines: { sequence: number; line: ExportLine }[] = [
        ...records.map((record) => ({ sequence: record.sequence, line: { type: 'record', record } as ExportLine })),
        ...holes.map((sequence) => ({ sequence, line: { type: 'hole', sequence } as ExportLine })),
      ].sort((a, b) => a.sequence - b.sequence);
      for (const { sequence, line } of lines) {
        counts[line.type] = (counts[line.type] ?? 0) + 1;
        yield { line, resume: at(1, sequence + 1) };
      }
    }
  }

  // Items, then summaries: paged lists, resumed by page token and position in the page.
  const paged = async function* (section: 2 | 3, names: readonly string[], list: (index: number, token?: string) => Promise<{ items: readonly unknown[]; nextToken?: string }>) {
    const first = start.section === section ? start.at : start.section < section ? 0 : names.length;
    for (let index = first; index < names.length; index += 1) {
      let token = start.section === section && index === start.at ? start.token : undefined;
      let skip = start.section === section && index === start.at ? start.skip : 0;
      do {
        const page = await list(index, token);
        for (let i = skip; i < page.items.length; i += 1) {
          const line: ExportLine = section === 2 ? { type: 'item', updater: names[index]!, item: page.items[i] } : { type: 'summary', summary: page.items[i] };
          counts[line.type] = (counts[line.type] ?? 0) + 1;
          const last = i === page.items.length - 1;
          // After a page's last entry, resume at the next page (or the next list).
          const resume = !last ? at(section, index, token, i + 1) : page.nextToken ? at(section, index, page.nextToken, 0) : at(section, index + 1);
          yield { line, resume };
        }
        token = page.nextToken;
        skip = 0;
      } while (token);
    }
  };
  yield* paged(2, UPDATERS, (index, token) => deps.memory.listItems(agent, UPDATERS[index]!, { limit: PAGE, ...(token ? { nextToken: token } : {}) }));
  yield* paged(3, LADDERS, (index, token) => deps.summaries.listSummaries(agent, LADDERS[index]!, undefined, { limit: PAGE, ...(token ? { nextToken: token } : {}) }));

  if (start.section <= 4) {
    const sent = start.section === 4 ? start.at : 0;
    const audit = await deps.memory.listAudit(agent, {});
    for (let i = sent; i < audit.length; i += 1) {
      counts.audit = (counts.audit ?? 0) + 1;
      yield { line: { type: 'audit', audit: audit[i] }, resume: at(4, i + 1) };
    }
  }
  yield { line: { type: 'end', counts: { ...counts } }, resume: at(5, 0) };
}
