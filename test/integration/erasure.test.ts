/**
 * Erasure on the local stack: DELETE answers 202, the queued job erases the
 * raw log (every object version and delete marker) and every item of the
 * agent in every table; status is then 404, an old event id is new again,
 * another agent and another tenant are untouched, and the tenant keeps a
 * minimal erasure record.
 */
import { ListObjectVersionsCommand } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../local/local-stack.js';
import { agentPartitionKey, rawRecordPrefix } from '../../functions/domain/agent-key.js';
import { DynamoDbErasureLog } from '../../functions/adapters/dynamodb/partition-eraser.js';
import { createApiKey } from '../../functions/use-cases/api-keys.js';
import { sqsRecord } from '../../local/lambda-events.js';
import { api, message, startTestStack } from '../support/local-stack.js';
import { waitFor } from '../support/wait.js';

let stack: LocalStack;
const agentId = 'to-erase';
const keep = 'to-keep';
const OTHER_TENANT_KEY = 'globex-all';

beforeAll(async () => {
  stack = await startTestStack({ apiKeys: `globex:${OTHER_TENANT_KEY}:read+write+admin` });
});

afterAll(async () => {
  await stack?.stop();
});

const documents = () => DynamoDBDocumentClient.from(stack.clients.dynamodb);
const tables = () => ['AgentsTable', 'MemoryTable', 'SummariesTable'].map((prefix) => stack.resourceRef('AWS::DynamoDB::Table', prefix));

async function partitionItems(tenantId: string, id: string): Promise<number> {
  let total = 0;
  for (const table of tables()) {
    const page = await documents().send(new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': agentPartitionKey({ tenantId, agentId: id }) } }));
    total += page.Items?.length ?? 0;
  }
  return total;
}

async function objectVersions(tenantId: string, id: string): Promise<number> {
  const page = await stack.clients.s3.send(new ListObjectVersionsCommand({ Bucket: stack.resourceRef('AWS::S3::Bucket', 'RawLog'), Prefix: rawRecordPrefix({ tenantId, agentId: id }) }));
  return (page.Versions?.length ?? 0) + (page.DeleteMarkers?.length ?? 0);
}

async function remember(id: string, key?: string) {
  const init = key ? { key } : {};
  const events = Array.from({ length: 6 }, (_, i) => message(`e${i + 1}`, i === 0 ? 'I met Dana Whitfield, head of design at Acme.' : `Remind me to call Dana about item ${i}.`));
  expect((await api(stack, 'POST', `/v1/agents/${id}/events`, { events }, init)).status).toBe(202);
  expect((await api(stack, 'POST', `/v1/agents/${id}/flush`, undefined, init)).status).toBe(202);
}

describe('erasing an agent', () => {
  let erasure: { status: number; body: Record<string, unknown> };

  beforeAll(async () => {
    await remember(agentId);
    await remember(keep);
    await remember(agentId, OTHER_TENANT_KEY);
    await stack.eventSources.waitForIdle();
    expect((await api(stack, 'POST', `/v1/agents/${agentId}/sweep`)).status).toBe(200);
    await stack.eventSources.waitForIdle();
    // Something to erase everywhere: raw records, ledger, stores, summaries, snapshot, an injection.
    expect((await api(stack, 'GET', `/v1/agents/${agentId}/context`)).status).toBe(200);
    expect(await objectVersions('default', agentId)).toBeGreaterThan(0);
    expect(await partitionItems('default', agentId)).toBeGreaterThan(10);

    erasure = await api(stack, 'DELETE', `/v1/agents/${agentId}`);
    await stack.eventSources.waitForIdle();
  });

  it('answers 202: the erasure is queued', () => {
    expect(erasure.status).toBe(202);
    expect(erasure.body).toMatchObject({ status: 'queued', agentId });
  });

  it('leaves no object version or delete marker under the raw log prefix, and no item in any table', async () => {
    expect(await objectVersions('default', agentId)).toBe(0);
    expect(await partitionItems('default', agentId)).toBe(0);
  });

  it('answers 404 for the status and snapshot afterwards, and takes an old event id as new', async () => {
    expect((await api(stack, 'GET', `/v1/agents/${agentId}/status`)).status).toBe(404);
    // The reader's warm cache may serve the erased snapshot for up to SNAPSHOT_CACHE_MS (1 s); then it is gone.
    await waitFor(async () => (await api(stack, 'GET', `/v1/agents/${agentId}/snapshot`)).status === 404, 10_000);
    const again = await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: [message('e1', 'a fresh start')] });
    expect(again.body).toMatchObject({ accepted: 1, duplicates: 0, sequence: [1] });
  });

  it('leaves other agents and the same agent id of another tenant untouched', async () => {
    expect((await api(stack, 'GET', `/v1/agents/${keep}/snapshot`)).status).toBe(200);
    // Six events posted in one request: one raw object.
    expect(await objectVersions('default', keep)).toBe(1);
    expect(await objectVersions('globex', agentId)).toBe(1);
    expect((await api(stack, 'GET', `/v1/agents/${agentId}/snapshot`, undefined, { key: OTHER_TENANT_KEY })).status).toBe(200);
  });

  it('keeps a minimal erasure record for the tenant: agent, when, counts, by which key, no content', async () => {
    const log = new DynamoDbErasureLog(documents(), stack.resourceRef('AWS::DynamoDB::Table', 'AgentsTable'));
    const records = await log.list('default');

    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ agentId, requestedBy: expect.stringMatching(/^key_/), counts: { rawLog: expect.any(Number), ledger: expect.any(Number), memory: expect.any(Number), summaries: expect.any(Number) } });
    // Six raw records, plus the retrieval index's segments under the same agent prefix.
    expect(records[0]!.counts.rawLog).toBeGreaterThanOrEqual(6);
    expect(JSON.stringify(records)).not.toContain('Dana');
  });

  it('lets a consolidation job delivered after the erasure write nothing', async () => {
    const erased = { tenantId: 'default', agentId: 'late-job' };
    await remember(erased.agentId);
    await stack.eventSources.waitForIdle();
    expect((await api(stack, 'DELETE', `/v1/agents/${erased.agentId}`)).status).toBe(202);
    await stack.eventSources.waitForIdle();
    expect(await partitionItems('default', erased.agentId)).toBe(0);

    const consolidator = [...stack.functions.values()].find((fn) => fn.logicalId.startsWith('ConsolidatorFunction'))!;
    const job = { ...erased, index: 1, fromSequence: 1, toSequence: 6 };
    // Refused (the ledger's batch marker is gone: retried, then dead-lettered), and nothing recreated in any table or prefix.
    await expect(consolidator.invoke({ Records: [sqsRecord({ body: JSON.stringify(job), groupId: agentPartitionKey(erased) })] })).rejects.toThrow(/failed/);
    expect(await partitionItems('default', erased.agentId)).toBe(0);
    expect(await objectVersions('default', erased.agentId)).toBe(0);
  });

  it('needs the admin scope', async () => {
    const writer = await createApiKey(stack.keys, { tenantId: 'default', scopes: ['read', 'write'] });
    expect((await api(stack, 'DELETE', `/v1/agents/${keep}`, undefined, { key: writer.key })).status).toBe(403);
  });
});
