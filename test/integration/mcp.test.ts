/**
 * The MCP server, driven by the SDK's own client against the local stack:
 * over an in-memory pair, streamable HTTP and stdio (a child process, as MCP
 * clients run it). Tools are described for a model, remember is idempotent,
 * recall returns the block and the ids it cites, tasks and contacts come
 * from the stores.
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryClient, createMemoryClient } from '../../clients/typescript/src/index.js';
import { createMemoryMcpServer } from '../../clients/mcp/tools.js';
import { startMcpHttpServer, type McpHttpServer } from '../../clients/mcp/server.js';
import type { LocalStack } from '../../local/local-stack.js';
import { scriptedConversation } from '../../scripts/corpus/scripted-conversation.js';
import { TEST_API_KEY, startTestStack } from '../support/local-stack.js';
import { waitFor } from '../support/wait.js';

let stack: LocalStack;
let memory: MemoryClient;
let mcp: Client;
let http: McpHttpServer | undefined;
const authorization: (string | null)[] = [];
const agentId = 'mcp-agent';

const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

beforeAll(async () => {
  stack = await startTestStack();
  memory = createMemoryClient({
    baseUrl: stack.url,
    apiKey: TEST_API_KEY,
    fetch: (request) => {
      authorization.push(request.headers.get('authorization'));
      return fetch(request);
    },
  });
  await memory.remember(agentId, scriptedConversation(100));
  await memory.flush(agentId);
  await waitFor(async () => (await memory.status(agentId)).lastConsolidatedSequence >= 100, 120_000, 200);
  await stack.eventSources.waitForIdle(120_000);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMemoryMcpServer({ client: memory, agentId }).connect(serverSide);
  mcp = new Client({ name: 'test-client', version: '1.0.0' });
  await mcp.connect(clientSide);
}, 300_000);

afterAll(async () => {
  await mcp?.close();
  await http?.close();
  await stack?.stop();
});

describe('the memory MCP server', () => {
  it('offers remember, recall, feedback, list_tasks and get_contact, each described with an input schema', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['feedback', 'get_contact', 'list_tasks', 'recall', 'remember']);
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(60);
      expect(tool.inputSchema.type).toBe('object');
    }
    expect(tools.find((tool) => tool.name === 'recall')!.inputSchema.required).toEqual(['query']);
  });

  it('remembers messages once, however often they are sent', async () => {
    const before = (await memory.status(agentId)).lastSequence;
    const messages = [
      { role: 'user', content: 'My dentist appointment moved to Thursday.', timestamp: '2026-12-01T09:00:00Z' },
      { role: 'assistant', content: 'Noted: dentist on Thursday.', timestamp: '2026-12-01T09:00:05Z' },
    ];
    expect(textOf(await mcp.callTool({ name: 'remember', arguments: { messages } }))).toBe('Stored 2 message(s).');
    expect(textOf(await mcp.callTool({ name: 'remember', arguments: { messages } }))).toBe('Stored 0 message(s); 2 were already stored.');
    expect((await memory.status(agentId)).lastSequence).toBe(before + 2);
  });

  it('recalls what it was just told, before any batch consolidates it, marked as not yet consolidated', async () => {
    // A new agent: nothing consolidated, no snapshot; a host has no flush.
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMemoryMcpServer({ client: memory, agentId: 'mcp-fresh' }).connect(serverSide);
    const host = new Client({ name: 'fresh-host', version: '1.0.0' });
    await host.connect(clientSide);
    try {
      await host.callTool({ name: 'remember', arguments: { messages: [
        { role: 'user', content: 'My sister Ines moved to Porto last month for a job at a bakery.', timestamp: '2026-12-01T10:00:00Z' },
        { role: 'user', content: 'Also, the car is booked in for its service on Friday.', timestamp: '2026-12-01T10:01:00Z' },
      ] } });
      const result = (await host.callTool({ name: 'recall', arguments: { query: 'Which city did my sister move to?' } })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toMatch(/\(not yet consolidated\) My sister Ines moved to Porto/);
      expect((result.structuredContent as { pendingRecords: number }).pendingRecords).toBe(2);
    } finally {
      await host.close();
    }
  });

  it('recalls budgeted context with the ids of what it cites, as logged by the service', async () => {
    const result = (await mcp.callTool({ name: 'recall', arguments: { query: 'Where does Dana work?', maxTokens: 600 } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as { items: { id: string }[]; requestId: string; tokens: number };
    expect(structured.items.length).toBeGreaterThan(0);
    expect(structured.tokens).toBeLessThanOrEqual(600);
    expect((await memory.injection(agentId, structured.requestId)).items).toEqual(structured.items);
    for (const item of structured.items) expect(textOf(result)).toContain(item.id);
  });

  it('takes feedback on a recalled item, as an audited change the store shows', async () => {
    const recalled = (await mcp.callTool({ name: 'recall', arguments: { query: 'Where does Dana work?', maxTokens: 600 } })) as CallToolResult;
    const { items, requestId } = recalled.structuredContent as { items: { id: string; kind: string }[]; requestId: string };
    const item = items.find((i) => i.kind === 'contact' || i.kind === 'fact' || i.kind === 'task');
    expect(item).toBeDefined();
    const result = (await mcp.callTool({ name: 'feedback', arguments: { itemId: item!.id, outcome: 'helpful', requestId } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(new RegExp(`^Recorded: helpful for ${item!.id} \\((verified|reinforced|restored|unchanged)\\)\\.$`));
    const history = await memory.api.GET('/v1/agents/{agentId}/items/{itemId}/history', { params: { path: { agentId, itemId: item!.id } } });
    expect(history.data?.versions.at(-1)).toMatchObject({ cause: 'feedback' });
  });

  it('lists the tasks the store holds, and looks up a contact by name', async () => {
    const all = await MemoryClient.all(memory.tasks(agentId));
    expect(all.length).toBeGreaterThan(0);
    const listed = (await mcp.callTool({ name: 'list_tasks', arguments: { state: 'all' } })) as CallToolResult;
    expect((listed.structuredContent as { tasks: { id: string }[] }).tasks.map((task) => task.id).sort()).toEqual(all.map((task) => task.id).sort());
    const contacts = await MemoryClient.all(memory.contacts(agentId));
    const someone = contacts[0]!;
    const found = await mcp.callTool({ name: 'get_contact', arguments: { name: someone.name.toUpperCase() } });
    expect(textOf(found)).toContain(`${someone.name} (id ${someone.id}`);
    expect(textOf(await mcp.callTool({ name: 'get_contact', arguments: { name: 'Nobody Atall' } }))).toBe('No contact matches "Nobody Atall".');
  });

  it('sends its key to the API on every call', () => {
    expect(new Set(authorization)).toEqual(new Set([`Bearer ${TEST_API_KEY}`]));
  });

  it('reports a refused call as a tool error instead of failing the session', async () => {
    const result = (await mcp.callTool({ name: 'recall', arguments: { query: 'x', agentId: 'nobody' } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The memory service refused the call \(404 NotFoundError\)/);
    const invalid = (await mcp.callTool({ name: 'recall', arguments: { query: 'x', maxTokens: 5 } })) as CallToolResult;
    expect(invalid.isError).toBe(true);
  });

  it('serves the same tools over streamable HTTP', async () => {
    http = await startMcpHttpServer({ client: memory, agentId, port: 0 });
    const client = new Client({ name: 'http-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    try {
      expect((await client.listTools()).tools).toHaveLength(5);
      const result = (await client.callTool({ name: 'recall', arguments: { query: 'Dana' } })) as CallToolResult;
      expect((result.structuredContent as { items: unknown[] }).items.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('serves the same tools on stdio, started as npm run mcp starts it', async () => {
    const tsx = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));
    const server = fileURLToPath(new URL('../../clients/mcp/server.ts', import.meta.url));
    const client = new Client({ name: 'stdio-client', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [tsx, server, '--url', stack.url, '--key', TEST_API_KEY, '--agent', agentId], stderr: 'pipe' }));
    try {
      const listed = (await client.callTool({ name: 'list_tasks', arguments: { state: 'all' } })) as CallToolResult;
      expect(listed.isError).toBeFalsy();
      const all = await MemoryClient.all(memory.tasks(agentId));
      expect((listed.structuredContent as { tasks: unknown[] }).tasks).toHaveLength(all.length);
    } finally {
      await client.close();
    }
  });
});
