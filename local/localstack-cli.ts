/**
 * `npm run localstack`: sets up LocalStack on first use (local/localstack.ts),
 * starts it on http://localhost:${LOCALSTACK_PORT:-4566}, prints the
 * endpoint, and on Ctrl-C or SIGTERM stops it and every process it started.
 * Point anything at it with `AWS_ENDPOINT_URL=http://localhost:4566`.
 */
import { startLocalStackEmulator } from './localstack.js';

const log = (line: string) => process.stderr.write(`[localstack] ${line}\n`);
const port = Number(process.env.LOCALSTACK_PORT ?? 4566);
const emulator = await startLocalStackEmulator({ port, log });
log(`ready: AWS_ENDPOINT_URL=${emulator.endpoint} npm start   (or npm test, npm run bench)`);
log('press Ctrl-C to stop');

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  log(`${signal} received, stopping LocalStack`);
  await emulator.stop();
  log('stopped');
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
