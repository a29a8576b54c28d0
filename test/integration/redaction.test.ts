/**
 * Redaction before anything is derived, on the local stack: secrets written
 * in conversation reach neither the model adapter nor any derived endpoint
 * (stores, audit, summaries, snapshot, context); masked PII neither; the raw
 * log keeps the evidence by default.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalStack } from '../../local/local-stack.js';
import { awsRuntime } from '../../functions/commons/runtime/aws.js';
import { modelPort } from '../../functions/commons/runtime/model.js';
import type { ModelRequest } from '../../functions/ports/model.js';
import { api, message, startTestStack } from '../support/local-stack.js';
import { stackReaders } from '../support/stack-readers.js';

let stack: LocalStack;
const agentId = 'redacted';
const prompts: ModelRequest[] = [];

const SECRETS = {
  password: 'hunter2xyz',
  card: '4111 1111 1111 1111',
  github: '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',
  connection: 'postgres://admin:Pa55word@db.internal:5432/app',
  bearer: 'abcdefghijklmnop1234567890QRSTUV',
  privateKeyBody: 'MIIEpAIBAAKCAQEA7zZsecretbodyline',
  email: 'dana.whitfield@example.com',
  phone: '+1 415-555-0199',
  address: '18 Rosemary Lane',
};

const conversation = [
  message('r1', `I met Dana Whitfield today. My password is ${SECRETS.password}, please remember it.`),
  message('r2', `Dana's email is ${SECRETS.email} and her phone is ${SECRETS.phone}.`),
  message('r3', `Pay with card ${SECRETS.card} for the launch tickets. I need to book the venue by Friday.`),
  message('r4', `The deploy token is ${SECRETS.github} and the database is ${SECRETS.connection}.`),
  message('r5', `Use the header Authorization: Bearer ${SECRETS.bearer} when calling Dana's API.`),
  message('r6', `-----BEGIN RSA PRIVATE KEY-----\n${SECRETS.privateKeyBody}\n-----END RSA PRIVATE KEY-----`),
  // Hidden in invisible characters: normalisation joins it before screening.
  message('r7', `I prefer tea over coffee. my pass\u200Bword is ${SECRETS.password}`),
  message('r8', `Dana lives at ${SECRETS.address}, Bristol.`),
];

beforeAll(async () => {
  stack = await startTestStack({ stackProps: { redaction: { email: 'mask', phone: 'mask', address: 'mask' } } });
  // The consolidator and summary writer share this process's runtime: record what its model adapter receives.
  const model = await modelPort(awsRuntime());
  const invoke = model.invoke.bind(model);
  vi.spyOn(model, 'invoke').mockImplementation(async (request) => {
    prompts.push(request);
    return invoke(request);
  });
  expect((await api(stack, 'POST', `/v1/agents/${agentId}/events`, { events: conversation })).status).toBe(202);
  expect((await api(stack, 'POST', `/v1/agents/${agentId}/flush`)).status).toBe(202);
  await stack.eventSources.waitForIdle();
  expect((await api(stack, 'POST', `/v1/agents/${agentId}/sweep`)).status).toBe(200);
  await stack.eventSources.waitForIdle();
});

afterAll(async () => {
  await stack?.stop();
});

function expectNoSecret(text: string, where: string) {
  for (const [name, secret] of Object.entries(SECRETS)) expect(text.includes(secret), `${name} in ${where}`).toBe(false);
  // Cards and phones also must not survive with their separators stripped.
  expect(text.includes(SECRETS.card.replace(/ /g, '')), `card digits in ${where}`).toBe(false);
}

async function getAll(path: string): Promise<string> {
  const response = await api(stack, 'GET', path);
  expect(response.status, path).toBe(200);
  return JSON.stringify(response.body);
}

describe('secrets in conversation', () => {
  it('never reach the model adapter', () => {
    expect(prompts.length).toBeGreaterThan(0);
    expectNoSecret(JSON.stringify(prompts), 'prompts');
    expect(JSON.stringify(prompts)).toContain('[secret:password]');
  });

  it('are absent from the stores, the audit, the summaries, the snapshot and the context', async () => {
    const derived = [
      await getAll(`/v1/agents/${agentId}/contacts`),
      await getAll(`/v1/agents/${agentId}/facts`),
      await getAll(`/v1/agents/${agentId}/tasks`),
      await getAll(`/v1/agents/${agentId}/audit?batch=1`),
      await getAll(`/v1/agents/${agentId}/summaries?ladder=time`),
      await getAll(`/v1/agents/${agentId}/summaries?ladder=count`),
      await getAll(`/v1/agents/${agentId}/snapshot`),
      await getAll(`/v1/agents/${agentId}/context?maxTokens=4000`),
      await getAll(`/v1/agents/${agentId}/context?maxTokens=4000&query=password`),
    ];
    derived.forEach((text, i) => expectNoSecret(text, `endpoint ${i}`));
    // Memory was still made from the rest of the text.
    expect(derived.join(' ')).toMatch(/Dana/);
  });

  it('are noted in the audit entry of the batch, by type and count, without the secret', async () => {
    const audit = await api<{ entries: { updater: string; redactions?: Record<string, number> }[] }>(stack, 'GET', `/v1/agents/${agentId}/audit?batch=1`);
    expect(audit.body.entries.length).toBe(3);
    for (const entry of audit.body.entries) expect(entry.redactions?.['secret:password'], entry.updater).toBeGreaterThanOrEqual(2);
  });

  it('are still in the raw log, which keeps the evidence by default', async () => {
    const record = await stackReaders(stack).rawLog.get({ tenantId: 'default', agentId }, 1);

    expect(record!.content).toContain(SECRETS.password);
  });
});
