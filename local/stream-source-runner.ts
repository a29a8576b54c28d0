/**
 * A local stand-in for Lambda's DynamoDB Streams event source mappings: reads
 * each mapped stream from the template's starting position, applies the
 * mapping's filter patterns, hands batches of up to `BatchSize` records to the
 * same handler Lambda runs, and on a handler error bisects the batch, retries
 * up to `MaximumRetryAttempts`, and sends what still fails (or is older than
 * `MaximumRecordAgeInSeconds`) to the on-failure queue, as Lambda does.
 * Polls are paced as the queue runner's are (`poll-pacing.ts`).
 */
import { DescribeStreamCommand, GetRecordsCommand, GetShardIteratorCommand, type DynamoDBStreamsClient, type _Record } from '@aws-sdk/client-dynamodb-streams';
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LocalFunction } from './lambda-functions.js';
import { pacedSources, waitForQuiet } from './poll-pacing.js';
import { resolveValue, type ResourceMap } from './provision.js';
import type { CfnTemplate } from './template.js';

export interface StreamMappingSpec {
  readonly logicalId: string;
  readonly streamArn: string;
  readonly startingPosition: 'TRIM_HORIZON' | 'LATEST';
  readonly batchSize: number;
  readonly patterns: readonly Record<string, unknown>[];
  readonly bisectOnError: boolean;
  /** The function reports failed records (`batchItemFailures`); delivery resumes from the first one. */
  readonly reportBatchItemFailures: boolean;
  readonly maxRetries: number;
  readonly maxRecordAgeSeconds: number;
  readonly onFailureQueueUrl?: string;
  readonly target: LocalFunction;
}

export interface StreamSourceStats {
  invocations: number;
  recordsDelivered: number;
  recordsFiltered: number;
  recordsFailed: number;
}

export function streamMappingsFromTemplate(
  template: CfnTemplate,
  resources: ResourceMap,
  functions: ReadonlyMap<string, LocalFunction>,
): StreamMappingSpec[] {
  const streamOwners = [...resources.values()].filter((r) => r.streamArn);
  const queuesByArn = new Map([...resources.values()].filter((r) => r.type === 'AWS::SQS::Queue').map((r) => [r.arn, r.ref]));
  return Object.entries(template.Resources)
    .filter(([, resource]) => resource.Type === 'AWS::Lambda::EventSourceMapping')
    .flatMap(([logicalId, resource]) => {
      const props = resource.Properties ?? {};
      const source = props.EventSourceArn as { 'Fn::GetAtt'?: [string, string] };
      const owner = source['Fn::GetAtt']?.[1] === 'StreamArn' ? streamOwners.find((r) => r.logicalId === source['Fn::GetAtt']![0]) : undefined;
      if (!owner) return [];
      const target = functions.get((props.FunctionName as { Ref: string }).Ref);
      if (!target) throw new Error(`stream mapping ${logicalId} targets a function that was not loaded`);
      const filters = ((props.FilterCriteria as { Filters?: { Pattern: string }[] } | undefined)?.Filters ?? []).map((f) => JSON.parse(f.Pattern) as Record<string, unknown>);
      const destination = (props.DestinationConfig as { OnFailure?: { Destination: unknown } } | undefined)?.OnFailure?.Destination;
      const onFailureQueueUrl = destination ? queuesByArn.get(resolveValue(destination, resources)) : undefined;
      return [
        {
          logicalId,
          streamArn: owner.streamArn!,
          startingPosition: (props.StartingPosition as 'TRIM_HORIZON' | 'LATEST') ?? 'TRIM_HORIZON',
          batchSize: Number(props.BatchSize ?? 100),
          patterns: filters,
          bisectOnError: props.BisectBatchOnFunctionError === true,
          reportBatchItemFailures: ((props.FunctionResponseTypes as string[] | undefined) ?? []).includes('ReportBatchItemFailures'),
          maxRetries: Number(props.MaximumRetryAttempts ?? 10_000),
          maxRecordAgeSeconds: Number(props.MaximumRecordAgeInSeconds ?? 604_800),
          ...(onFailureQueueUrl ? { onFailureQueueUrl } : {}),
          target,
        },
      ];
    });
}

/** EventBridge-style pattern matching, as Lambda's filter criteria use: literal lists and `prefix`. */
export function matchesPattern(value: unknown, pattern: unknown): boolean {
  if (Array.isArray(pattern)) {
    return pattern.some((rule) => {
      if (rule && typeof rule === 'object' && 'prefix' in rule) return typeof value === 'string' && value.startsWith(String((rule as { prefix: string }).prefix));
      return value === rule;
    });
  }
  if (pattern && typeof pattern === 'object') {
    if (!value || typeof value !== 'object') return false;
    return Object.entries(pattern).every(([key, sub]) => matchesPattern((value as Record<string, unknown>)[key], sub));
  }
  return value === pattern;
}

export function startStreamSourceRunner(
  streams: DynamoDBStreamsClient,
  sqs: SQSClient,
  mappings: readonly StreamMappingSpec[],
  options: { pollIntervalMs?: number; log?: (line: string) => void } = {},
) {
  const pollIntervalMs = options.pollIntervalMs ?? 100;
  const log = options.log ?? (() => {});
  const stats: StreamSourceStats = { invocations: 0, recordsDelivered: 0, recordsFiltered: 0, recordsFailed: 0 };
  const sources = pacedSources(mappings.map((mapping) => mapping.logicalId), pollIntervalMs);
  let running = true;

  const sendToFailureDestination = async (mapping: StreamMappingSpec, records: readonly DynamoDBRecord[], reason: string) => {
    stats.recordsFailed += records.length;
    log(`${mapping.logicalId}: ${records.length} record(s) to the failure destination: ${reason}`);
    if (!mapping.onFailureQueueUrl) return;
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: mapping.onFailureQueueUrl,
        MessageBody: JSON.stringify({
          requestContext: { condition: reason, functionArn: mapping.target.logicalId },
          DDBStreamBatchInfo: {
            streamArn: mapping.streamArn,
            startSequenceNumber: records[0]?.dynamodb?.SequenceNumber,
            endSequenceNumber: records.at(-1)?.dynamodb?.SequenceNumber,
            batchSize: records.length,
          },
        }),
      }),
    );
  };

  const deliver = async (mapping: StreamMappingSpec, records: DynamoDBRecord[], attempt: number): Promise<void> => {
    stats.invocations += 1;
    try {
      const result = (await mapping.target.invoke({ Records: records } satisfies DynamoDBStreamEvent)) as { batchItemFailures?: { itemIdentifier: string }[] } | undefined;
      const failed = mapping.reportBatchItemFailures ? new Set((result?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier)) : new Set<string>();
      const first = records.findIndex((record) => failed.has(String(record.dynamodb?.SequenceNumber)));
      if (first >= 0) {
        // As Lambda does: everything before the first failed record is checkpointed; the rest is retried.
        stats.recordsDelivered += first;
        throw Object.assign(new Error(`${failed.size} record(s) reported as failed`), { remaining: records.slice(first) });
      }
      stats.recordsDelivered += records.length;
    } catch (caught) {
      const error = caught as Error & { remaining?: DynamoDBRecord[] };
      if (error.remaining) records = error.remaining;
      if (mapping.bisectOnError && records.length > 1) {
        const half = Math.ceil(records.length / 2);
        await deliver(mapping, records.slice(0, half), attempt + 1);
        await deliver(mapping, records.slice(half), attempt + 1);
      } else if (attempt < mapping.maxRetries) {
        await sleep(Math.min(1_000, 50 * 2 ** attempt));
        await deliver(mapping, records, attempt + 1);
      } else {
        await sendToFailureDestination(mapping, records, `RetryAttemptsExhausted: ${String(error)}`);
      }
    }
  };

  const loops = mappings.map(async (mapping) => {
    // Per shard: its iterator (undefined once the shard is closed and read to its end) and the last sequence number read.
    const iterators = new Map<string, string | undefined>();
    const lastRead = new Map<string, string>();
    const iteratorFor = async (shardId: string, position: 'TRIM_HORIZON' | 'LATEST' | 'AFTER_SEQUENCE_NUMBER') =>
      (
        await streams.send(
          new GetShardIteratorCommand({ StreamArn: mapping.streamArn, ShardId: shardId, ShardIteratorType: position, ...(position === 'AFTER_SEQUENCE_NUMBER' ? { SequenceNumber: lastRead.get(shardId) } : {}) }),
        )
      ).ShardIterator;
    /** Shards appear as others close (DynamoDB rolls them over): each new one is read from its start, as Lambda does. */
    let described = false;
    const discoverShards = async () => {
      const description = await streams.send(new DescribeStreamCommand({ StreamArn: mapping.streamArn }));
      for (const shard of description.StreamDescription?.Shards ?? []) {
        if (iterators.has(shard.ShardId!)) continue;
        iterators.set(shard.ShardId!, await iteratorFor(shard.ShardId!, described ? 'TRIM_HORIZON' : mapping.startingPosition));
      }
      described = true;
    };
    await discoverShards();
    const source = sources.get(mapping.logicalId)!;
    let polls = 0;
    while (running) {
      let delivered = false;
      try {
        // Every shard closed, or now and then: look for the shards that replaced them.
        polls += 1;
        if ([...iterators.values()].every((iterator) => iterator === undefined) || polls % 50 === 0) await discoverShards();
        for (const [shardId, iterator] of iterators) {
          if (!iterator) continue;
          let page;
          try {
            page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: mapping.batchSize }));
          } catch (error) {
            const name = (error as Error).name;
            // An iterator lives 15 minutes: take a new one after the last record read.
            if (name === 'ExpiredIteratorException') {
              iterators.set(shardId, await iteratorFor(shardId, lastRead.has(shardId) ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON'));
              continue;
            }
            // Records past the stream's retention are gone: carry on from the oldest one kept (Lambda does the same), and say so.
            if (name === 'TrimmedDataAccessException') {
              log(`stream source ${mapping.logicalId}: records of shard ${shardId} were trimmed before they were read; reading on from the oldest kept`);
              iterators.set(shardId, await iteratorFor(shardId, 'TRIM_HORIZON'));
              continue;
            }
            throw error;
          }
          iterators.set(shardId, page.NextShardIterator);
          const sequence = page.Records?.at(-1)?.dynamodb?.SequenceNumber;
          if (sequence) lastRead.set(shardId, sequence);
          const records = (page.Records ?? []).map((record) => toLambdaRecord(record, mapping.streamArn));
          if (records.length === 0) continue;
          delivered = true;
          // Busy while the records are handled, not only after: a delivery may outlast the idle checks.
          source.inHand();
          const cutoff = Date.now() / 1000 - mapping.maxRecordAgeSeconds;
          const fresh = records.filter((r) => (r.dynamodb?.ApproximateCreationDateTime ?? Number.POSITIVE_INFINITY) >= cutoff);
          if (fresh.length < records.length) await sendToFailureDestination(mapping, records.filter((r) => !fresh.includes(r)), 'RecordAgeExceeded');
          const matching = mapping.patterns.length === 0 ? fresh : fresh.filter((record) => mapping.patterns.some((p) => matchesPattern(record, p)));
          stats.recordsFiltered += fresh.length - matching.length;
          if (matching.length > 0) await deliver(mapping, matching, 0);
        }
      } catch (error) {
        if (running) log(`stream source ${mapping.logicalId}: ${String(error)}`);
      }
      await source.polled(delivered);
    }
  });

  return {
    stats,
    /** Resolves once every stream has had two consecutive empty polls, at least one begun after this call. */
    async waitForIdle(timeoutMs = 30_000) {
      await waitForQuiet(sources, pollIntervalMs, timeoutMs, 'stream sources');
    },
    async stop() {
      running = false;
      for (const { pacer } of sources.values()) pacer.stop();
      await Promise.all(loops);
    },
  };
}

function toLambdaRecord(record: _Record, streamArn: string): DynamoDBRecord {
  const created = record.dynamodb?.ApproximateCreationDateTime;
  return {
    eventID: record.eventID,
    eventName: record.eventName as DynamoDBRecord['eventName'],
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion ?? 'us-east-1',
    eventSourceARN: streamArn,
    dynamodb: {
      ...(record.dynamodb?.Keys ? { Keys: record.dynamodb.Keys as never } : {}),
      ...(record.dynamodb?.NewImage ? { NewImage: record.dynamodb.NewImage as never } : {}),
      ...(record.dynamodb?.OldImage ? { OldImage: record.dynamodb.OldImage as never } : {}),
      SequenceNumber: record.dynamodb?.SequenceNumber,
      SizeBytes: record.dynamodb?.SizeBytes,
      StreamViewType: record.dynamodb?.StreamViewType as never,
      ...(created ? { ApproximateCreationDateTime: created instanceof Date ? created.getTime() / 1000 : Number(created) } : {}),
    },
  };
}
