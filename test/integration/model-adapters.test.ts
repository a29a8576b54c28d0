/**
 * The Bedrock and OpenAI-compatible adapters against local HTTP servers that
 * speak their wire formats: request shape, structured-output parsing, and
 * retries on throttling.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttp2Server, type Http2Server, type IncomingHttpHeaders } from 'node:http2';
import { CreateSecretCommand, GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { secretValue } from '../../functions/adapters/secrets/secret-value.js';
import { updaterOutputSchemas } from '../../functions/domain/memory.js';
import { BedrockModel } from '../../functions/adapters/models/bedrock-model.js';
import { ModelCallError, type ModelRequest, type UpdaterInput } from '../../functions/ports/model.js';
import { OpenAiCompatibleModel } from '../../functions/adapters/models/openai-compatible-model.js';
import { CURRENT_PROMPTS } from '../../functions/domain/prompts/index.js';
import { renderPrompt } from '../../functions/domain/prompts/render.js';

interface Reply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

interface Recorded {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'] | IncomingHttpHeaders;
  readonly body: Record<string, any>;
}

let server: Server | Http2Server | undefined;

/**
 * A local server answering with the scripted replies in order, recording every
 * request. HTTP/2 (cleartext) for Bedrock, whose SDK client speaks HTTP/2;
 * HTTP/1.1 for OpenAI-compatible servers.
 */
async function scriptedServer(replies: Reply[], protocol: 'http1' | 'http2' = 'http1'): Promise<{ url: string; requests: Recorded[] }> {
  const requests: Recorded[] = [];
  const create = protocol === 'http2' ? createHttp2Server : createServer;
  server = (create as typeof createServer)(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    requests.push({ method: request.method!, url: request.url!, headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') });
    const reply = replies[Math.min(requests.length - 1, replies.length - 1)]!;
    response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    response.end(JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  server.on('session', (session) => sessions.add(session));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, requests };
}

const sessions = new Set<{ destroy(): void }>();

afterEach(async () => {
  for (const session of sessions) session.destroy();
  sessions.clear();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

beforeAll(() => {
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
});

const input: UpdaterInput = {
  updater: 'tasks',
  records: [{ id: 'D1:3', sequence: 3, timestamp: '2026-11-02T09:00:00Z', type: 'message', role: 'user', content: 'Remind me to call the bank tomorrow.' }],
  existing: [{ alias: 'T1', title: 'Renew passport', owner: 'user', state: 'open' }],
  tables: [],
};
const request: ModelRequest = {
  task: 'tasks',
  prompt: renderPrompt(CURRENT_PROMPTS.tasks, input),
  input,
  outputSchema: updaterOutputSchemas.tasks,
  maxOutputTokens: 1000,
};
const patch = { ops: [{ op: 'add', task: { title: 'Call the bank', owner: 'user', due: '2026-11-03' }, evidence: ['D1:3'] }] };

const converseReply = (input: unknown): Reply => ({
  status: 200,
  body: {
    output: { message: { role: 'assistant', content: [{ toolUse: { toolUseId: 'tu-1', name: 'submit_patch', input } }] } },
    stopReason: 'tool_use',
    usage: { inputTokens: 812, outputTokens: 64, totalTokens: 876 },
    metrics: { latencyMs: 120 },
  },
});
const throttled: Reply = { status: 429, body: { message: 'Too many requests, please wait before trying again.' }, headers: { 'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/' } };

describe('Bedrock adapter (Converse API)', () => {
  it('sends the prompt and the output schema as a forced tool, and parses the tool input', async () => {
    const fake = await scriptedServer([converseReply(patch)], 'http2');
    const model = new BedrockModel({ modelId: 'anthropic.claude-3-5-haiku-20241022-v1:0', region: 'us-east-1', endpoint: fake.url });

    const response = await model.invoke(request);

    expect(response).toEqual({ output: patch, modelId: 'anthropic.claude-3-5-haiku-20241022-v1:0', usage: { inputTokens: 812, outputTokens: 64 } });
    const [sent] = fake.requests;
    expect(sent!.method).toBe('POST');
    expect(decodeURIComponent(sent!.url)).toBe('/model/anthropic.claude-3-5-haiku-20241022-v1:0/converse');
    expect(sent!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 /);
    // A model with prompt caching gets a cache point after the static part (tools and system prompt).
    expect(sent!.body.system).toEqual([{ text: CURRENT_PROMPTS.tasks.system }, { cachePoint: { type: 'default' } }]);
    expect(sent!.body.messages[0].content[0].text).toContain('[D1:3] 2026-11-02T09:00:00Z message user: Remind me to call the bank tomorrow.');
    expect(sent!.body.messages[0].content[0].text).toContain('"alias":"T1"');
    expect(sent!.body.toolConfig.toolChoice).toEqual({ tool: { name: 'submit_patch' } });
    expect(sent!.body.toolConfig.tools[0].toolSpec.inputSchema.json).toMatchObject({ type: 'object', required: ['ops'] });
    expect(sent!.body.inferenceConfig).toEqual({ maxTokens: 1000, temperature: 0 });
  });

  it('sends no cache point to a model without prompt caching, and reports cache reads when Bedrock does', async () => {
    const reply = converseReply(patch);
    const cached = { ...reply, body: { ...(reply.body as Record<string, unknown>), usage: { inputTokens: 300, outputTokens: 64, totalTokens: 364, cacheReadInputTokens: 1200, cacheWriteInputTokens: 0 } } };
    const fake = await scriptedServer([converseReply(patch), cached], 'http2');
    const plain = new BedrockModel({ modelId: 'mistral.mistral-large-2407-v1:0', region: 'us-east-1', endpoint: fake.url });
    const nova = new BedrockModel({ modelId: 'us.amazon.nova-lite-v1:0', region: 'us-east-1', endpoint: fake.url });

    await plain.invoke(request);
    const second = await nova.invoke(request);

    expect(fake.requests[0]!.body.system).toEqual([{ text: CURRENT_PROMPTS.tasks.system }]);
    expect(fake.requests[1]!.body.system.at(-1)).toEqual({ cachePoint: { type: 'default' } });
    // Budgets count every input token: the 300 new ones and the 1,200 read from the cache.
    expect(second.usage).toEqual({ inputTokens: 1500, outputTokens: 64, cacheReadInputTokens: 1200 });
  });

  it('retries with backoff when Bedrock throttles', async () => {
    const fake = await scriptedServer([throttled, throttled, converseReply(patch)], 'http2');
    const model = new BedrockModel({ modelId: 'm', region: 'us-east-1', endpoint: fake.url });

    const response = await model.invoke(request);

    expect(response.output).toEqual(patch);
    expect(fake.requests).toHaveLength(3);
  });

  it('gives up after its maximum attempts', async () => {
    const fake = await scriptedServer([throttled], 'http2');
    const model = new BedrockModel({ modelId: 'm', region: 'us-east-1', endpoint: fake.url, maxAttempts: 2 });

    await expect(model.invoke(request)).rejects.toThrow(/Too many requests/);
    expect(fake.requests).toHaveLength(2);
  });

  it('fails clearly when the model answers without calling the tool', async () => {
    const fake = await scriptedServer([{ status: 200, body: { output: { message: { role: 'assistant', content: [{ text: 'Sure!' }] } }, stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } } }], 'http2');
    const model = new BedrockModel({ modelId: 'm', region: 'us-east-1', endpoint: fake.url });

    await expect(model.invoke(request)).rejects.toBeInstanceOf(ModelCallError);
  });
});

const completion = (args: string): Reply => ({
  status: 200,
  body: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'submit_patch', arguments: args } }] } }],
    usage: { prompt_tokens: 700, completion_tokens: 50, total_tokens: 750 },
  },
});

describe('OpenAI-compatible adapter (chat completions)', () => {
  it('sends a forced function call with the schema and parses its arguments', async () => {
    const fake = await scriptedServer([completion(JSON.stringify(patch))]);
    const model = new OpenAiCompatibleModel({ baseUrl: `${fake.url}/v1`, modelId: 'llama3.1', apiKey: 'sk-local' });

    const response = await model.invoke(request);

    expect(response).toEqual({ output: patch, modelId: 'llama3.1', usage: { inputTokens: 700, outputTokens: 50 } });
    const [sent] = fake.requests;
    expect(sent!.url).toBe('/v1/chat/completions');
    expect(sent!.headers.authorization).toBe('Bearer sk-local');
    expect(sent!.body).toMatchObject({ model: 'llama3.1', temperature: 0, max_tokens: 1000, tool_choice: { type: 'function', function: { name: 'submit_patch' } } });
    expect(sent!.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    expect(sent!.body.tools[0].function.parameters).toMatchObject({ type: 'object', required: ['ops'] });
  });

  it('reads its key from Secrets Manager once, when first needed (a plain string or {"apiKey"})', async () => {
    const secrets = new SecretsManagerClient({ endpoint: inject('awsEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
    const name = `openai-key-${Date.now()}`;
    await secrets.send(new CreateSecretCommand({ Name: name, SecretString: JSON.stringify({ apiKey: 'sk-from-secret' }) }));
    let reads = 0;
    const counting = { send: (command: GetSecretValueCommand) => ((reads += 1), secrets.send(command)) };
    const fake = await scriptedServer([completion(JSON.stringify(patch)), completion(JSON.stringify(patch))]);
    const model = new OpenAiCompatibleModel({ baseUrl: `${fake.url}/v1`, modelId: 'llama3.1', apiKey: secretValue(name, counting as never) });

    await model.invoke(request);
    await model.invoke(request);

    expect(fake.requests.map((r) => r.headers.authorization)).toEqual(['Bearer sk-from-secret', 'Bearer sk-from-secret']);
    expect(reads).toBe(1);
    const plain = `${name}-plain`;
    await secrets.send(new CreateSecretCommand({ Name: plain, SecretString: 'sk-plain' }));
    expect(await secretValue(plain, secrets)()).toBe('sk-plain');
    await expect(secretValue(`${name}-missing`, secrets)()).rejects.toThrow();
  });

  it('retries 429 and 5xx answers, then succeeds', async () => {
    const fake = await scriptedServer([
      { status: 429, body: { error: { message: 'rate limited' } }, headers: { 'retry-after': '0' } },
      { status: 503, body: { error: { message: 'loading model' } } },
      completion(JSON.stringify(patch)),
    ]);
    const model = new OpenAiCompatibleModel({ baseUrl: `${fake.url}/v1`, modelId: 'm', backoffMs: 10 });

    expect((await model.invoke(request)).output).toEqual(patch);
    expect(fake.requests).toHaveLength(3);
  });

  it('does not retry a client error, and reports it', async () => {
    const fake = await scriptedServer([{ status: 400, body: { error: { message: 'unknown model' } } }]);
    const model = new OpenAiCompatibleModel({ baseUrl: `${fake.url}/v1`, modelId: 'm', backoffMs: 10 });

    await expect(model.invoke(request)).rejects.toThrow(/answered 400 after 1 attempt/);
    expect(fake.requests).toHaveLength(1);
  });

  it('refuses arguments that are not JSON', async () => {
    const fake = await scriptedServer([completion('{not json')]);
    const model = new OpenAiCompatibleModel({ baseUrl: `${fake.url}/v1`, modelId: 'm' });

    await expect(model.invoke(request)).rejects.toThrow(/not JSON/);
  });
});
