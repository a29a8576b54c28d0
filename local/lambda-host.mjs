// One local Lambda instance: a process of its own that imports a function's
// bundle (LAMBDA_TASK_ROOT, _HANDLER, as the Node.js runtime reads them) and
// runs one invocation at a time on the messages of its parent
// (local/bundled-functions.ts). Plain JavaScript, so nothing but the bundle
// itself is loaded: what runs here is what Lambda would run.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';

const taskRoot = process.env.LAMBDA_TASK_ROOT;
const [moduleName, exportName] = (process.env._HANDLER ?? 'index.handler').split('.');

/** The runtime's own resolution: index.mjs, then index.js, then index.cjs. */
function handlerFile() {
  for (const extension of ['.mjs', '.js', '.cjs']) {
    const file = join(taskRoot, `${moduleName}${extension}`);
    if (existsSync(file)) return file;
  }
  throw new Error(`Cannot find module '${moduleName}' in ${taskRoot}`);
}

function describe(error) {
  return error instanceof Error
    ? { errorType: error.name, errorMessage: error.message, stack: error.stack }
    : { errorType: 'Error', errorMessage: String(error) };
}

/**
 * Peak resident memory of this process so far, in MB: Lambda's "Max Memory
 * Used". Sampled (getrusage's maxRSS is no use here: Linux carries it over
 * from the parent process across fork and exec).
 */
let peakRss = process.memoryUsage.rss();
const sampleRss = () => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
};
setInterval(sampleRss, 20).unref();
const maxMemoryUsedMb = () => {
  sampleRss();
  return Math.ceil(peakRss / 1_048_576);
};

let handler;
const initStarted = performance.now();
try {
  const module = await import(pathToFileURL(handlerFile()).href);
  handler = module[exportName];
  if (typeof handler !== 'function') throw new Error(`${moduleName}.${exportName} is undefined or not exported`);
  process.send({ type: 'ready', initMs: performance.now() - initStarted, maxMemoryUsedMb: maxMemoryUsedMb() });
} catch (error) {
  process.send({ type: 'init-error', error: describe(error), initMs: performance.now() - initStarted });
}

process.on('message', async (message) => {
  if (message.type !== 'invoke' || !handler) return;
  const { id, event, deadline } = message;
  const context = {
    functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${process.env.AWS_REGION}:000000000000:function:${process.env.AWS_LAMBDA_FUNCTION_NAME}`,
    memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${process.env.AWS_LAMBDA_FUNCTION_NAME}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done() {},
    fail() {},
    succeed() {},
  };
  const started = performance.now();
  try {
    const value = await handler(event, context);
    process.send({ type: 'result', id, ok: true, value, durationMs: performance.now() - started, maxMemoryUsedMb: maxMemoryUsedMb() });
  } catch (error) {
    process.send({ type: 'result', id, ok: false, error: describe(error), durationMs: performance.now() - started, maxMemoryUsedMb: maxMemoryUsedMb() });
  }
});

// The parent going away ends the instance, as a sandbox ends with its host.
process.on('disconnect', () => process.exit(0));
