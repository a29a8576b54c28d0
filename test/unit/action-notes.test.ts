/**
 * Pitfalls and procedures from actions (the local model's rules), and what
 * the store makes of them: unverified when first seen, verified when reused.
 */
import { describe, expect, it } from 'vitest';
import { extractActionNotes } from '../../functions/adapters/models/local/actions.js';
import { extractFacts } from '../../functions/adapters/models/local/facts.js';
import type { Evidence, FactItem, FactOp } from '../../functions/domain/memory.js';
import { aliasItems, applyPatch } from '../../functions/domain/patch.js';
import { toPromptRecord } from '../../functions/use-cases/consolidate-batch.js';
import type { PromptRecord, UpdaterInput } from '../../functions/ports/model.js';
import type { RawRecord } from '../../functions/ports/pipeline.js';

let sequence = 0;
function raw(content: string, extra: Partial<RawRecord> = {}): RawRecord {
  sequence += 1;
  return { id: `e${sequence}`, sequence, timestamp: `2026-11-02T09:${String(sequence).padStart(2, '0')}:00Z`, type: 'action', role: 'tool', content, ...extra } as RawRecord;
}
const input = (records: PromptRecord[], existing: UpdaterInput['existing'] = [], tables: UpdaterInput['tables'] = []): UpdaterInput => ({ updater: 'facts', records, existing, tables }) as UpdaterInput;
const adds = (ops: FactOp[]) => ops.filter((op): op is Extract<FactOp, { op: 'add' }> => op.op === 'add');

describe('action records as the model sees them', () => {
  it('carry the tool, the outcome and the error from metadata; an error alone is a failure', () => {
    expect(toPromptRecord(raw('POST /invoices', { metadata: { tool: 'billing', outcome: 'success' } }))).toMatchObject({ tool: 'billing', outcome: 'success' });
    expect(toPromptRecord(raw('POST /invoices', { metadata: { tool: 'billing', error: 'HTTP 422: currency is required' } }))).toMatchObject({ outcome: 'failure', error: 'HTTP 422: currency is required' });
    expect(toPromptRecord(raw('hello', { type: 'message', role: 'user', metadata: { outcome: 'success' } }))).not.toHaveProperty('outcome');
  });
});

describe('pitfalls', () => {
  it('come from a failed action followed by a successful one with the same tool, citing both', () => {
    const failed = toPromptRecord(raw('create invoice for ACME in EUR without a currency field', { metadata: { tool: 'billing', error: 'HTTP 422: currency is required' } }));
    const other = toPromptRecord(raw('look up the customer', { metadata: { tool: 'crm', outcome: 'success' } }));
    const fixed = toPromptRecord(raw('create invoice for ACME with currency EUR', { metadata: { tool: 'billing', outcome: 'success' } }));

    const ops = extractActionNotes(input([failed, other, fixed]));

    expect(ops[0]).toMatchObject({ op: 'create_table', table: 'pitfalls', key: ['tool', 'assumed'] });
    expect(adds(ops)).toEqual([
      expect.objectContaining({
        table: 'pitfalls',
        row: { tool: 'billing', assumed: 'create invoice for ACME in EUR without a currency field', actual: 'HTTP 422: currency is required', avoid: 'create invoice for ACME with currency EUR' },
        evidence: [failed.id, fixed.id],
      }),
    ]);
  });

  it('need a success said to be one, with the same tool', () => {
    const failed = toPromptRecord(raw('deploy to staging', { metadata: { tool: 'deploy', outcome: 'failure', error: 'timeout' } }));
    const unknown = toPromptRecord(raw('deploy to staging again', { metadata: { tool: 'deploy' } }));
    const otherTool = toPromptRecord(raw('page the on-call', { metadata: { tool: 'pager', outcome: 'success' } }));
    expect(extractActionNotes(input([failed, unknown, otherTool]))).toEqual([]);
  });
});

describe('procedures', () => {
  const run = (interactionId: string, suffix: string) => [
    toPromptRecord(raw(`pull the latest report ${suffix}`, { interactionId, metadata: { tool: 'reports', outcome: 'success' } })),
    toPromptRecord(raw(`email the report to finance ${suffix}`, { interactionId, metadata: { tool: 'email', outcome: 'success' } })),
  ];

  it('come from a run of successful actions that recurs in two interactions, as a checklist citing both runs', () => {
    const first = run('s1', 'for May');
    const second = run('s2', 'for June');
    const ops = adds(extractActionNotes(input([...first, ...second])));
    expect(ops).toEqual([
      expect.objectContaining({ table: 'procedures', row: { task: 'reports → email', steps: '1. pull the latest report for May 2. email the report to finance for May' }, evidence: [...first, ...second].map((r) => r.id) }),
    ]);
  });

  it('are not made from one run, nor from a run that failed', () => {
    expect(extractActionNotes(input(run('s1', 'once')))).toEqual([]);
    const failing = [...run('s3', 'x'), toPromptRecord(raw('archive it', { interactionId: 's3', metadata: { tool: 'files', outcome: 'failure' } }))];
    expect(extractActionNotes(input([...failing, ...run('s4', 'y')]))).toEqual([]);
  });

  it('restate a procedure memory holds when one run reuses it, so the store verifies it', () => {
    const first = run('s1', 'for May');
    const second = run('s2', 'for June');
    const records = new Map<string, Evidence>(
      [...first, ...second, ...run('s9', 'for July')].map((r) => [r.id, { recordId: r.id, sequence: r.sequence, timestamp: r.timestamp, role: r.role }]),
    );
    const context = (items: FactItem[], batch: number) => ({ updater: 'facts' as const, batch, now: '2026-11-05T00:00:00Z', scope: { tenantId: 'default', agentId: 'a' }, records, aliases: aliasItems('facts', items).idOf });
    const learnt = applyPatch({ updater: 'facts', version: 1, lastBatch: 1, items: [], tables: [] }, extractActionNotes(input([...first, ...second])), context([], 2));
    const procedure = learnt.items[0] as FactItem;
    expect(procedure).toMatchObject({ table: 'procedures', verification: 'unverified' });

    const reuse = run('s9', 'for July');
    for (const r of reuse) records.set(r.id, { recordId: r.id, sequence: r.sequence, timestamp: r.timestamp, role: r.role });
    const existing = [{ alias: 'F1', table: 'procedures', row: procedure.row }];
    const ops = extractActionNotes(input(reuse, existing, [...learnt.tables]));
    expect(adds(ops)).toEqual([expect.objectContaining({ row: procedure.row })]);

    const reused = applyPatch({ updater: 'facts', version: 2, lastBatch: 2, items: [procedure], tables: [...learnt.tables] }, ops, context([procedure], 3));
    expect(reused.items).toHaveLength(1);
    expect(reused.items[0]).toMatchObject({ id: procedure.id, verification: 'verified' });
  });
});

describe('the local facts updater', () => {
  it('adds pitfalls next to the facts it reads from messages', () => {
    const records = [
      toPromptRecord(raw('I live in Porto.', { type: 'message', role: 'user' })),
      toPromptRecord(raw('book the 9:00 train', { metadata: { tool: 'rail', error: 'sold out' } })),
      toPromptRecord(raw('book the 9:30 train', { metadata: { tool: 'rail', outcome: 'success' } })),
    ];
    const ops = adds(extractFacts(input(records)).ops);
    expect(ops.map((op) => op.table).sort()).toEqual(['pitfalls', 'profile']);
  });
});

describe('existing items as the model sees them', () => {
  it('mark a refuted item, so the next batch can give its right value', async () => {
    const { forModel } = await import('../../functions/use-cases/consolidate-batch.js');
    const base = { id: 'f_1', kind: 'fact', scope: { tenantId: 'default', agentId: 'a' }, table: 'profile', row: { subject: 'user', attribute: 'dentist', value: 'Dr. Brennan' }, statement: 'My dentist is Dr. Brennan', status: 'active', confidence: 0.05, hitCount: 1, createdAt: '', updatedAt: '', lastReinforcedAt: '', evidence: [], history: [] } as const;
    expect(forModel({ ...base, verification: 'refuted' } as never)).toMatchObject({ row: base.row, refuted: true });
    expect(forModel({ ...base, verification: 'unverified' } as never)).not.toHaveProperty('refuted');
  });
});
