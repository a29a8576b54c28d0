/**
 * `npm start`: the whole pipeline locally. Starts moto (unless
 * AWS_ENDPOINT_URL points at an emulator already), provisions the stack's
 * resources, serves the API on http://127.0.0.1:${PORT:-3000} and runs the
 * event sources. `npm start -- --bundles` runs every function from its
 * synthesised bundle, as deployed, instead of from the sources. Ctrl-C or
 * SIGTERM shuts everything down, emulator included.
 */
import { startLocalStack } from './local-stack.js';
import { SCOPES } from '../functions/domain/auth.js';
import { createApiKey } from '../functions/use-cases/api-keys.js';

const log = (line: string) => process.stderr.write(`[local] ${line}\n`);
const port = Number(process.env.PORT ?? 3000);
// MEMORY_API_KEYS seeds chosen keys (tenant:key:scopes, comma-separated, scopes joined by +).
const seeded = process.env.MEMORY_API_KEYS;
const functions = process.argv.includes('--bundles') ? 'bundles' : 'sources';
if (functions === 'bundles') log('synthesising the stack with its bundles (as cdk deploy would)');
const stack = await startLocalStack({ endpoint: process.env.AWS_ENDPOINT_URL, port, log, functions, ...(seeded ? { apiKeys: seeded } : {}) });
// Without seeds: one fresh key for tenant `default` with every scope, shown once.
let exampleKey = '<one of your MEMORY_API_KEYS>';
if (!seeded) {
  const created = await createApiKey(stack.keys, { tenantId: 'default', scopes: [...SCOPES], description: 'created by npm start' });
  exampleKey = created.key;
  log(`API key (tenant default, scopes ${SCOPES.join(',')}; shown once): ${created.key}`);
} else {
  log(`API keys seeded from MEMORY_API_KEYS`);
}

log(`emulator:  ${stack.endpoint}  (keys: npm run keys -- list --endpoint ${stack.endpoint})`);
for (const resource of stack.resources.values()) log(`resource:  ${resource.type.padEnd(22)} ${resource.ref}`);
log(`API listening on ${stack.url}  (GET ${stack.url}/health)`);
log(`try: curl -s -X POST ${stack.url}/v1/agents/demo/events -H 'content-type: application/json' -H 'authorization: Bearer ${exampleKey}' \\`);
log(`       -d '{"events":[{"id":"m1","type":"message","role":"user","content":"Hello"}]}'`);
log('press Ctrl-C to stop');

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  log(`${signal} received, shutting down`);
  await stack.stop();
  log('stopped');
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
