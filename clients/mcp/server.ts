/**
 * `npm run mcp -- --url <API> --key <key> [--agent <id>]`: the memory MCP
 * server on stdio; with `--http --port N` on streamable HTTP at `/mcp`
 * (stateless: each request gets its own server, so any number of clients).
 */
import { createServer, type Server } from 'node:http';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMemoryClient } from '../typescript/src/index.js';
import { createMemoryMcpServer, type MemoryToolsOptions } from './tools.js';

export interface McpHttpServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Serves the tools over streamable HTTP at `/mcp` on host:port (0 picks a free port). */
export async function startMcpHttpServer(options: MemoryToolsOptions & { host?: string; port: number }): Promise<McpHttpServer> {
  const http: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== '/mcp') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found: the MCP endpoint is /mcp"}');
      return;
    }
    if (request.method !== 'POST') {
      // Stateless: no server-initiated stream and no session to delete.
      response.writeHead(405, { allow: 'POST', 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","error":{"code":-32000,"message":"Method not allowed"},"id":null}');
      return;
    }
    const server = createMemoryMcpServer(options);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(request, response))
      .catch(() => {
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"},"id":null}');
      });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, () => resolve());
  });
  const { port } = http.address() as { port: number };
  return {
    url: `http://${host}:${port}/mcp`,
    close: () => new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    }),
  };
}

async function main(argv: readonly string[]): Promise<void> {
  const { values } = parseArgs({
    args: [...argv],
    options: { url: { type: 'string' }, key: { type: 'string' }, agent: { type: 'string' }, http: { type: 'boolean' }, port: { type: 'string' }, host: { type: 'string' } },
    strict: true,
  });
  const client = createMemoryClient({ baseUrl: values.url ?? process.env.MEMORY_API_URL ?? 'http://127.0.0.1:3000', apiKey: values.key ?? process.env.MEMORY_API_KEY });
  const options = { client, agentId: values.agent ?? process.env.MEMORY_AGENT_ID };
  if (values.http) {
    const port = Number(values.port ?? 3001);
    if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error('--port must be a port number');
    const server = await startMcpHttpServer({ ...options, port, ...(values.host ? { host: values.host } : {}) });
    // stdout is free here (stdio transport not in use).
    console.log(`agent-memory MCP server on ${server.url}`);
    return;
  }
  // stdout carries the protocol: nothing else may be written to it.
  await createMemoryMcpServer(options).connect(new StdioServerTransport());
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`agent-memory-mcp: ${(error as Error).message.split('\n')[0]}\n`);
    process.exit(1);
  });
}
