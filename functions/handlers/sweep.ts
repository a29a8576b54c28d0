/** Lambda entry: the summary sweep (schedule and HTTP). */
import { createSweepHandler } from './http/sweep-route.js';
import { awsRuntime } from '../commons/runtime/aws.js';
import { embeddingPort } from '../commons/runtime/embeddings.js';
import { modelPort } from '../commons/runtime/model.js';
import { indexDependencies, snapshotDependencies, summaryDependencies } from '../commons/runtime/pipelines.js';
import { redaction } from '../commons/runtime/redaction.js';
import { agentLedger, injectionLog, memoryStore } from '../commons/runtime/stores.js';
import { SqsSweepQueue } from '../adapters/sqs/sweep-queue.js';

const runtime = awsRuntime();
if (!runtime.config.sweepQueueUrl) throw new Error('invalid configuration: the sweep needs SWEEP_QUEUE_URL');
const { redactedRawLog, ingestRawLog } = redaction(runtime);
const [model, embeddings] = await Promise.all([modelPort(runtime), embeddingPort(runtime)]);
const index = indexDependencies(runtime, embeddings, redactedRawLog);
const ledger = agentLedger(runtime);

export const handler = createSweepHandler({
  ...summaryDependencies(runtime, model, redactedRawLog),
  ledger,
  queue: new SqsSweepQueue(runtime.clients.sqs, runtime.config.sweepQueueUrl),
  leaseMs: runtime.config.sweepLeaseMs,
  snapshot: snapshotDependencies(runtime, index),
  index,
  lifecycle: {
    memory: memoryStore(runtime),
    injections: injectionLog(runtime),
    forgetting: runtime.config.forgetting,
    outcomes: { rawLog: ingestRawLog, ledger },
  },
});
