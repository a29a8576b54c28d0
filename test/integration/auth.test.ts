/**
 * API keys on the local stack: the same authorizer function the stack
 * deploys runs before every route; a refused request leaves nothing behind;
 * the tenant is the key's, so two tenants using one agent id never see or
 * touch each other's data.
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../local/local-stack.js';
import { agentPartitionKey, rawRecordPrefix } from '../../functions/domain/agent-key.js';
import { hashApiKey } from '../../functions/domain/auth.js';
import { createApiKey } from '../../functions/use-cases/api-keys.js';
import { api, message, startTestStack } from '../support/local-stack.js';

let stack: LocalStack;

const KEYS = {
  acme: 'acme-all-scopes',
  globex: 'globex-read-write',
  reader: 'acme-read-only',
  writer: 'acme-write-only',
  limited: 'acme-agents-a1-a2',
};

beforeAll(async () => {
  stack = await startTestStack({
    apiKeys: [
      `acme:${KEYS.acme}:read+write+admin`,
      `globex:${KEYS.globex}:read+write`,
      `acme:${KEYS.reader}:read`,
      `acme:${KEYS.writer}:write`,
      `acme:${KEYS.limited}:read+write:a1+a2`,
    ].join(','),
  });
});

afterAll(async () => {
  await stack?.stop();
});

async function rawKeys(tenantId: string, agentId: string): Promise<string[]> {
  const bucket = stack.resourceRef('AWS::S3::Bucket', 'RawLog');
  const page = await stack.clients.s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: rawRecordPrefix({ tenantId, agentId }) }));
  return (page.Contents ?? []).map((object) => object.Key!);
}

async function ledgerItems(tenantId: string, agentId: string): Promise<Record<string, unknown>[]> {
  const documents = DynamoDBDocumentClient.from(stack.clients.dynamodb);
  const page = await documents.send(
    new QueryCommand({
      TableName: stack.resourceRef('AWS::DynamoDB::Table', 'AgentsTable'),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': agentPartitionKey({ tenantId, agentId }) },
    }),
  );
  return page.Items ?? [];
}

const events = (prefix: string, count = 2) => ({ events: Array.from({ length: count }, (_, i) => message(`${prefix}-${i + 1}`, `${prefix} says hello ${i + 1}`)) });

describe('a request without a valid key', () => {
  it('is a 401 when the Authorization header is missing, and writes nothing', async () => {
    const response = await api(stack, 'POST', '/v1/agents/nokey/events', events('nokey'), { key: null });

    expect(response.status).toBe(401);
    expect(await rawKeys('default', 'nokey')).toEqual([]);
    expect(await ledgerItems('default', 'nokey')).toEqual([]);
  });

  it('is a 401 for a key the service does not know, and writes nothing', async () => {
    const response = await api(stack, 'POST', '/v1/agents/wrongkey/events', events('wrongkey'), { key: 'not-a-key-anyone-was-given' });

    expect(response.status).toBe(401);
    expect(await rawKeys('default', 'wrongkey')).toEqual([]);
    expect(await ledgerItems('default', 'wrongkey')).toEqual([]);
  });

  it('is a 401 when the header is not a bearer key, even if it contains a valid key', async () => {
    const response = await api(stack, 'GET', '/v1/agents/a1/status', undefined, { authorization: `Basic ${KEYS.acme}` });

    expect(response.status).toBe(401);
  });

  it('is a 401 on reads and admin routes too', async () => {
    for (const [method, path] of [
      ['GET', '/v1/agents/a1/snapshot'],
      ['GET', '/v1/agents/a1/context'],
      ['GET', '/v1/agents/a1/audit?batch=1'],
      ['POST', '/v1/agents/a1/sweep'],
      ['POST', '/v1/agents/a1/flush'],
    ] as const) {
      expect((await api(stack, method, path, undefined, { key: null })).status, `${method} ${path}`).toBe(401);
    }
  });

  it('does not need a key for /health', async () => {
    expect((await api(stack, 'GET', '/health', undefined, { key: null })).status).toBe(200);
  });
});

describe('scopes', () => {
  it('refuses a write with a read-only key (403) and writes nothing', async () => {
    const response = await api(stack, 'POST', '/v1/agents/scoped/events', events('scoped'), { key: KEYS.reader });

    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ error: 'ForbiddenError', message: expect.stringContaining('write') });
    expect(await rawKeys('acme', 'scoped')).toEqual([]);
    expect(await ledgerItems('acme', 'scoped')).toEqual([]);
  });

  it('lets a write-only key write but not read, and a read-only key read', async () => {
    expect((await api(stack, 'POST', '/v1/agents/scoped2/events', events('scoped2'), { key: KEYS.writer })).status).toBe(202);
    expect((await api(stack, 'GET', '/v1/agents/scoped2/status', undefined, { key: KEYS.writer })).status).toBe(403);

    const status = await api(stack, 'GET', '/v1/agents/scoped2/status', undefined, { key: KEYS.reader });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ tenantId: 'acme', agentId: 'scoped2' });
  });

  it('keeps admin routes (audit, sweep, rebuild) from read and write keys', async () => {
    expect((await api(stack, 'GET', '/v1/agents/scoped2/audit?batch=1', undefined, { key: KEYS.reader })).status).toBe(403);
    expect((await api(stack, 'POST', '/v1/agents/scoped2/sweep', undefined, { key: KEYS.writer })).status).toBe(403);
    expect((await api(stack, 'POST', '/v1/agents/scoped2/summaries/rebuild', { ladder: 'count', from: 1, to: 1 }, { key: KEYS.globex })).status).toBe(403);
    expect((await api(stack, 'POST', '/v1/agents/scoped2/sweep', undefined, { key: KEYS.acme })).status).toBe(200);
  });
});

describe('a key limited to a list of agents', () => {
  it('addresses its agents and is refused (403) for any other, writing nothing', async () => {
    expect((await api(stack, 'POST', '/v1/agents/a1/events', events('limited-a1'), { key: KEYS.limited })).status).toBe(202);

    const refused = await api(stack, 'POST', '/v1/agents/a3/events', events('limited-a3'), { key: KEYS.limited });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ message: expect.stringContaining('a3') });
    expect(await rawKeys('acme', 'a3')).toEqual([]);
    expect((await api(stack, 'GET', '/v1/agents/a3/status', undefined, { key: KEYS.limited })).status).toBe(403);
  });
});

describe('two tenants with the same agent id', () => {
  const agentId = 'shared-agent';

  beforeAll(async () => {
    const written = await api(stack, 'POST', `/v1/agents/${agentId}/events`, {
      events: [message('s-1', 'I am Alice from acme, my phone is 555-0100'), message('s-2', 'Remind me to call Bob tomorrow')],
    }, { key: KEYS.acme });
    expect(written.status).toBe(202);
    expect((await api(stack, 'POST', `/v1/agents/${agentId}/flush`, undefined, { key: KEYS.acme })).status).toBe(202);
    await stack.eventSources.waitForIdle();
  });

  it('gives the second tenant nothing of the first: no status, no snapshot, no context, empty stores', async () => {
    expect((await api(stack, 'GET', `/v1/agents/${agentId}/status`, undefined, { key: KEYS.globex })).status).toBe(404);
    expect((await api(stack, 'GET', `/v1/agents/${agentId}/snapshot`, undefined, { key: KEYS.globex })).status).toBe(404);
    expect((await api(stack, 'GET', `/v1/agents/${agentId}/context`, undefined, { key: KEYS.globex })).status).toBe(404);
    for (const store of ['contacts', 'facts', 'tasks']) {
      const page = await api<{ items: unknown[] }>(stack, 'GET', `/v1/agents/${agentId}/${store}`, undefined, { key: KEYS.globex });
      expect(page.status).toBe(200);
      expect(page.body.items).toEqual([]);
    }
    // The first tenant does see its own.
    expect((await api(stack, 'GET', `/v1/agents/${agentId}/snapshot`, undefined, { key: KEYS.acme })).status).toBe(200);
  });

  it("lets the second tenant's writes land in its own partition and prefix only", async () => {
    const acmeBefore = await ledgerItems('acme', agentId);
    const acmeRawBefore = await rawKeys('acme', agentId);

    // The same event ids: in another tenant they are new events, not duplicates or conflicts.
    const written = await api<{ accepted: number; duplicates: number }>(stack, 'POST', `/v1/agents/${agentId}/events`, {
      events: [message('s-1', 'globex content entirely different'), message('s-2', 'more globex content')],
    }, { key: KEYS.globex });
    expect(written.status).toBe(202);
    expect(written.body).toMatchObject({ accepted: 2, duplicates: 0 });

    expect(await ledgerItems('acme', agentId)).toEqual(acmeBefore);
    expect(await rawKeys('acme', agentId)).toEqual(acmeRawBefore);
    // The request's two events are one object in the second tenant's prefix.
    expect(await rawKeys('globex', agentId)).toHaveLength(1);
    const status = await api(stack, 'GET', `/v1/agents/${agentId}/status`, undefined, { key: KEYS.globex });
    expect(status.body).toMatchObject({ tenantId: 'globex', agentId });
  });

  it('ignores any tenant named in the request', async () => {
    const response = await api(stack, 'GET', `/v1/agents/${agentId}/status?tenantId=acme`, undefined, { key: KEYS.globex });

    expect(response.body).toMatchObject({ tenantId: 'globex' });
  });
});

describe('the key table', () => {
  it('holds digests only, never a key in clear', async () => {
    const stored = await stack.keys.list('acme');

    expect(stored.map((key) => key.keyHash)).toContain(hashApiKey(KEYS.acme));
    expect(JSON.stringify(stored)).not.toContain(KEYS.acme);
  });

  it('serves a key created while the stack runs, and refuses it once revoked (before the cache kept it)', async () => {
    const created = await createApiKey(stack.keys, { tenantId: 'initech', scopes: ['read'] });
    expect(await stack.keys.revoke(created.stored.keyId)).toBe(true);
    expect((await api(stack, 'GET', '/v1/agents/x1/status', undefined, { key: created.key })).status).toBe(401);

    const fresh = await createApiKey(stack.keys, { tenantId: 'initech', scopes: ['read'] });
    const response = await api(stack, 'GET', '/v1/agents/x1/status', undefined, { key: fresh.key });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ error: 'NotFoundError' });
  });
});
