/**
 * The fault-and-load run behind `npm run chaos` and test/integration/chaos.test.ts:
 * many agents ingest concurrently through the local stack's HTTP API (client
 * retries on 5xx/429, honouring Retry-After, resending the same event ids)
 * while the functions' AWS calls fail, the model fails and times out, and
 * invocations are killed midway (local/fault-injection.ts). Then a final flush,
 * a drain (redriving the dead-letter queue as an operator would) and the
 * checks, read from the raw log, the audit and the stores through the emulator:
 * nothing acknowledged lost, no patch applied twice, no agent stuck, ladders
 * complete where their inputs are.
 */
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDbAgentLedger } from '../../functions/adapters/dynamodb/agent-ledger.js';
import { S3RawLog } from '../../functions/adapters/s3/raw-log.js';
import { redriveDeadLetters } from '../../functions/adapters/sqs/redrive-dead-letters.js';
import { agentPartitionKey } from '../../functions/domain/agent-key.js';
import { DEFAULT_LADDERS, childIndices, dayNumber, parentIndex, topLevel, type Ladder } from '../../functions/domain/ladders.js';
import { UPDATERS } from '../../functions/domain/memory.js';
import { mapWithConcurrency } from '../../functions/commons/concurrency.js';
import type { FaultInjector } from '../../local/fault-injection.js';
import type { LocalStack } from '../../local/local-stack.js';
import { scriptedConversation } from '../corpus/scripted-conversation.js';

export interface ChaosOptions {
  readonly agents: number;
  readonly messages: number;
  /** Events per POST. @default 10 */
  readonly requestSize?: number;
  /** Agents ingesting at once. @default every agent */
  readonly concurrency?: number;
  readonly drainTimeoutMs: number;
  readonly key: string;
  readonly log?: (line: string) => void;
}

export interface ChaosResult {
  readonly events: number;
  readonly requests: number;
  readonly clientRetries: number;
  readonly faults: number;
  readonly faultsByKind: Record<string, number>;
  readonly redeliveries: number;
  readonly deadLettered: number;
  readonly redriven: number;
  readonly ladderDeadLettered: number;
  readonly ingestSeconds: number;
  readonly drainSeconds: number;
  readonly lost: number;
  readonly doubled: number;
  readonly stuck: number;
  readonly ladderGaps: number;
  readonly problems: readonly string[];
}

interface Listed {
  id: string;
  level: number;
  through?: number;
}

export async function runChaos(stack: LocalStack, faults: FaultInjector, options: ChaosOptions): Promise<ChaosResult> {
  const log = options.log ?? (() => {});
  const requestSize = options.requestSize ?? 10;
  const problems: string[] = [];
  const documents = DynamoDBDocumentClient.from(stack.clients.dynamodb);
  const ledger = new DynamoDbAgentLedger(documents, stack.resourceRef('AWS::DynamoDB::Table', 'AgentsTable'));
  const rawLog = new S3RawLog(stack.clients.s3, stack.resourceRef('AWS::S3::Bucket', 'RawLog'));
  const memoryTable = stack.resourceRef('AWS::DynamoDB::Table', 'MemoryTable');
  const queueUrl = stack.resourceRef('AWS::SQS::Queue', 'ConsolidationQueue');
  const deadLetterQueueUrl = stack.resourceRef('AWS::SQS::Queue', 'ConsolidationDeadLetterQueue');
  const ladderDeadLetterQueueUrl = stack.resourceRef('AWS::SQS::Queue', 'LadderDeadLetterQueue');
  const conversation = scriptedConversation(options.messages);
  const agentIds = Array.from({ length: options.agents }, (_, i) => `chaos-${String(i).padStart(3, '0')}`);
  let requests = 0;
  let clientRetries = 0;

  /** One client call: retried on network errors, 5xx and 429 (after Retry-After), always with the same body. */
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
    for (let attempt = 0; ; attempt += 1) {
      requests += 1;
      let status = 0;
      let retryAfter: string | null = null;
      let parsed: Record<string, unknown> = {};
      try {
        const response = await fetch(`${stack.url}${path}`, {
          method,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${options.key}` },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
        status = response.status;
        retryAfter = response.headers.get('retry-after');
        const text = await response.text();
        parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        status = 0;
      }
      if (status !== 0 && status < 500 && status !== 429) return { status, body: parsed };
      if (attempt >= 60) throw new Error(`${method} ${path}: still ${status} after ${attempt + 1} attempts`);
      clientRetries += 1;
      const waitMs = retryAfter !== null && Number.isFinite(Number(retryAfter)) ? Number(retryAfter) * 1000 : Math.min(2_000, 50 * 2 ** Math.min(attempt, 6));
      await sleep(waitMs);
    }
  };

  // 1. Ingest: every agent at once, each sending its conversation in order.
  const acknowledged = new Map<string, Set<string>>(agentIds.map((id) => [id, new Set()]));
  const ingestStarted = Date.now();
  await mapWithConcurrency(agentIds, options.concurrency ?? agentIds.length, async (agentId) => {
    for (let start = 0; start < conversation.length; start += requestSize) {
      const events = conversation.slice(start, start + requestSize);
      const response = await call('POST', `/v1/agents/${agentId}/events`, { events });
      if (response.status === 202) for (const event of events) acknowledged.get(agentId)!.add(event.id);
      else problems.push(`${agentId}: events ${start + 1}-${start + events.length} answered ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
    }
  });
  const ingestSeconds = (Date.now() - ingestStarted) / 1000;
  const events = [...acknowledged.values()].reduce((sum, ids) => sum + ids.size, 0);
  log(`ingested ${events} events in ${ingestSeconds.toFixed(1)} s (${requests} requests, ${clientRetries} client retries); ${faults.total} faults so far`);

  // 2. Final flush, then drain: until every agent is consolidated, redriving dead letters as they appear.
  const drainStarted = Date.now();
  const flush = async (agentId: string) => {
    const response = await call('POST', `/v1/agents/${agentId}/flush`);
    if (response.status !== 200 && response.status !== 202) problems.push(`${agentId}: flush answered ${response.status}`);
  };
  await mapWithConcurrency(agentIds, 8, flush);
  let deadLettered = 0;
  let redriven = 0;
  const redrive = async () => {
    const moved = await redriveDeadLetters(stack.clients.sqs, ledger, { deadLetterQueueUrl, queueUrl });
    for (const job of moved) log(`redriven: agent=${job.agentId} batch=${job.batch} cause=${job.cause ?? '(none recorded)'}`);
    deadLettered += moved.length;
    redriven += moved.filter((job) => job.moved).length;
  };
  const unsettled = async (): Promise<string[]> => {
    const pending: string[] = [];
    for (const agentId of agentIds) {
      const status = await ledger.readStatus({ tenantId: 'default', agentId });
      if (!status || status.lastConsolidatedSequence < status.lastSequence) pending.push(agentId);
    }
    return pending;
  };
  let pending = await unsettled();
  let lastFlush = Date.now();
  while (pending.length > 0 && Date.now() - drainStarted < options.drainTimeoutMs) {
    await sleep(1_000);
    await redrive();
    // A flush answered while faults were injected may have been coalesced or lost its enqueue: ask again now and then.
    if (Date.now() - lastFlush > 10_000) {
      await mapWithConcurrency(pending, 8, flush);
      lastFlush = Date.now();
    }
    pending = await unsettled();
  }
  const drainSeconds = (Date.now() - drainStarted) / 1000;
  const stuck = pending.length;
  for (const agentId of pending) {
    const status = await ledger.readStatus({ tenantId: 'default', agentId });
    problems.push(`${agentId} stuck: lastConsolidatedSequence ${status?.lastConsolidatedSequence} < lastSequence ${status?.lastSequence}`);
  }
  log(`drained in ${drainSeconds.toFixed(1)} s; ${stuck} agent(s) stuck`);

  // 3. Faults off; close every agent's last day and interaction, let the ladders settle.
  faults.enabled = false;
  await mapWithConcurrency(agentIds, 4, async (agentId) => {
    const response = await call('POST', `/v1/agents/${agentId}/sweep`);
    if (response.status !== 200) problems.push(`${agentId}: sweep answered ${response.status}`);
  });
  await stack.eventSources.waitForIdle(options.drainTimeoutMs);
  await redrive();
  await stack.eventSources.waitForIdle(options.drainTimeoutMs);

  // 4. Checks, from the stores themselves.
  let lost = 0;
  let doubled = 0;
  let ladderGaps = 0;
  await mapWithConcurrency(agentIds, 4, async (agentId) => {
    const agent = { tenantId: 'default', agentId };
    const status = await ledger.readStatus(agent);
    const consolidatedThrough = status?.lastConsolidatedSequence ?? 0;
    // Lost: an acknowledged event missing from the raw log, or not consolidated.
    const records = status ? await rawLog.getRange(agent, 1, status.lastSequence).catch((error: unknown) => { problems.push(`${agentId}: raw log: ${String(error)}`); return []; }) : [];
    const sequenceOf = new Map(records.map((record) => [record.id, record.sequence]));
    for (const id of acknowledged.get(agentId)!) {
      const sequence = sequenceOf.get(id);
      if (sequence === undefined || sequence > consolidatedThrough) {
        lost += 1;
        problems.push(`${agentId}: acknowledged event ${id} ${sequence === undefined ? 'is not in the raw log' : `(sequence ${sequence}) is not consolidated (through ${consolidatedThrough})`}`);
      }
    }
    if (records.length !== sequenceOf.size) problems.push(`${agentId}: ${records.length - sequenceOf.size} event id(s) stored under two sequence numbers`);
    doubled += records.length - sequenceOf.size;

    // Doubled: more than one consolidation audit entry per updater and batch, a store version that
    // moved more often than batches were applied, or two identical items.
    const memory = await queryAll(documents, memoryTable, agentPartitionKey(agent));
    const audits = memory.filter((item) => /^AUDIT#\d+#[a-z]+$/.test(String(item.sk)));
    const batchesClosed = status?.batchesClosed ?? 0;
    for (const updater of UPDATERS) {
      const batches = audits.filter((item) => item.updater === updater).map((item) => Number(item.batch));
      const distinct = new Set(batches);
      if (distinct.size !== batches.length) {
        doubled += batches.length - distinct.size;
        problems.push(`${agentId}: ${updater}: ${batches.length - distinct.size} batch(es) with two audit entries`);
      }
      // Changes outside consolidation (maintenance after the sweep) move the version too, each with its own audit entry.
      const changes = memory.filter((item) => new RegExp(`^AUDIT#\\d+#${updater}#.+$`).test(String(item.sk))).length;
      const head = memory.find((item) => item.sk === `HEAD#${updater}`);
      if (head && Number(head.version) !== distinct.size + changes) {
        doubled += Math.max(0, Number(head.version) - distinct.size - changes);
        problems.push(`${agentId}: ${updater} store at version ${head.version} after ${distinct.size} applied batch(es) and ${changes} other change(s)`);
      }
      for (let index = 1; index <= batchesClosed; index += 1) {
        if (!distinct.has(index)) problems.push(`${agentId}: ${updater}: batch ${index} of ${batchesClosed} has no audit entry`);
      }
      const seen = new Set<string>();
      for (const row of memory.filter((item) => String(item.sk).startsWith(`ITEM#${updater}#`))) {
        const { id: _id, createdAt: _createdAt, updatedAt: _updatedAt, history: _history, ...content } = JSON.parse(String(row.data)) as Record<string, unknown>;
        const key = JSON.stringify(content);
        if (seen.has(key)) {
          doubled += 1;
          problems.push(`${agentId}: ${updater}: two identical items ${key.slice(0, 200)}`);
        }
        seen.add(key);
      }
    }

    // Ladders: every level complete exactly where its inputs are.
    const origin = parentIndex(DEFAULT_LADDERS, 'time', 0, dayNumber(conversation[0]!.timestamp));
    for (const ladder of ['time', 'count'] as const satisfies readonly Ladder[]) {
      const listed: Listed[] = [];
      let token: string | undefined;
      do {
        const page = await call('GET', `/v1/agents/${agentId}/summaries?ladder=${ladder}&limit=100${token ? `&nextToken=${token}` : ''}`);
        listed.push(...((page.body.items as Listed[] | undefined) ?? []));
        token = page.body.nextToken as string | undefined;
      } while (token);
      const indexOf = (s: Listed) => Number(s.id.split(':')[2]);
      const present = (level: number) => new Set(listed.filter((s) => s.level === level).flatMap((s) => Array.from({ length: (s.through ?? indexOf(s)) - indexOf(s) + 1 }, (_, i) => indexOf(s) + i)));
      if (present(0).size === 0) {
        ladderGaps += 1;
        problems.push(`${agentId}: ${ladder} ladder has no base summary`);
      }
      const ladderOrigin = ladder === 'time' ? origin : 0;
      for (let level = 1; level <= topLevel(DEFAULT_LADDERS, ladder); level += 1) {
        const below = present(level - 1);
        const here = present(level);
        for (const parent of new Set([...below].map((child) => parentIndex(DEFAULT_LADDERS, ladder, level - 1, child, ladderOrigin)))) {
          const complete = childIndices(DEFAULT_LADDERS, ladder, level, parent, ladderOrigin).every((child) => below.has(child));
          if (complete !== here.has(parent)) {
            ladderGaps += 1;
            problems.push(`${agentId}: ${ladder} level ${level} index ${parent} ${complete ? 'missing though its inputs are complete' : 'built before its inputs'}`);
          }
        }
      }
    }
  });

  const depth = async (url: string) => {
    const attributes = await stack.clients.sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }));
    return Number(attributes.Attributes?.ApproximateNumberOfMessages ?? 0) + Number(attributes.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0);
  };
  const ladderDeadLettered = await depth(ladderDeadLetterQueueUrl);
  const queueStats = stack.eventSources.stats;
  const faultsByKind: Record<string, number> = {
    ...Object.fromEntries(Object.entries(faults.counts.aws).sort()),
    'model.failed': faults.counts.model.failed,
    'model.timedOut': faults.counts.model.timedOut,
    ...Object.fromEntries(Object.entries(faults.counts.kills).sort().map(([name, count]) => [`kill.${name}`, count])),
  };
  return {
    events,
    requests,
    clientRetries,
    faults: faults.total,
    faultsByKind,
    // Every delivery of a queue record that was not its last: failed, killed or timed out, then received again.
    redeliveries: queueStats.recordsFailed + stack.eventSources.streamStats.recordsFailed,
    deadLettered,
    redriven,
    ladderDeadLettered,
    ingestSeconds,
    drainSeconds,
    lost,
    doubled,
    stuck,
    ladderGaps,
    problems,
  };
}

async function queryAll(documents: DynamoDBDocumentClient, tableName: string, pk: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}
