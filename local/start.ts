/**
 * `npm start`: the whole pipeline locally. Starts moto (unless
 * AWS_ENDPOINT_URL points at an emulator already), provisions the stack's
 * resources, serves the API on http://127.0.0.1:${PORT:-3000} and runs the
 * event sources. Ctrl-C or SIGTERM shuts everything down, emulator included.
 */
import { startLocalStack } from './local-stack.js';

const log = (line: string) => process.stderr.write(`[local] ${line}\n`);
const port = Number(process.env.PORT ?? 3000);
const stack = await startLocalStack({ endpoint: process.env.AWS_ENDPOINT_URL, port, log });

log(`emulator:  ${stack.endpoint}`);
for (const resource of stack.resources.values()) log(`resource:  ${resource.type.padEnd(22)} ${resource.ref}`);
log(`API listening on ${stack.url}  (GET ${stack.url}/health)`);
log(`try: curl -s -X POST ${stack.url}/v1/agents/demo/events -H 'content-type: application/json' \\`);
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
