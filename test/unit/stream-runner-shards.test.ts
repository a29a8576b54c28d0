/**
 * The local DynamoDB Streams source keeps reading as Lambda does when a
 * stream misbehaves the way real ones (and LocalStack's) do: an iterator that
 * expired is renewed after the last record read, records trimmed before they
 * were read are skipped to the oldest kept, and a closed shard's child shard is
 * found and read from its start. The streams client is scripted here (unit
 * test); the runner itself runs unchanged.
 */
import { DescribeStreamCommand, GetRecordsCommand, GetShardIteratorCommand, type DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { startStreamSourceRunner, type StreamMappingSpec } from '../../local/stream-source-runner.js';
import { waitFor } from '../support/wait.js';

const record = (shard: string, sequence: number) => ({ eventID: `${shard}-${sequence}`, eventName: 'INSERT', dynamodb: { Keys: { pk: { S: `${shard}#${sequence}` } }, SequenceNumber: String(sequence).padStart(8, '0') } });
const failure = (name: string) => Object.assign(new Error(name), { name });

/** Shard A holds records 1-4 and closes; shard B (its child) appears and holds 5-6. Faults are raised once each. */
function scriptedStreams(faults: { expireAt?: number; trimAt?: number }) {
  const shards: Record<string, number[]> = { A: [1, 2, 3, 4], B: [5, 6] };
  let childVisible = false;
  const raised = new Set<string>();
  const calls: string[] = [];
  const client = {
    send: async (command: unknown) => {
      if (command instanceof DescribeStreamCommand) {
        calls.push('describe');
        const list = [{ ShardId: 'A' }, ...(childVisible ? [{ ShardId: 'B', ParentShardId: 'A' }] : [])];
        return { StreamDescription: { Shards: list } };
      }
      if (command instanceof GetShardIteratorCommand) {
        const { ShardId, ShardIteratorType, SequenceNumber } = command.input;
        calls.push(`iterator ${ShardId} ${ShardIteratorType}${SequenceNumber ? ` ${Number(SequenceNumber)}` : ''}`);
        const start = ShardIteratorType === 'AFTER_SEQUENCE_NUMBER' ? shards[ShardId!]!.indexOf(Number(SequenceNumber)) + 1 : 0;
        return { ShardIterator: `${ShardId}:${start}` };
      }
      if (command instanceof GetRecordsCommand) {
        const [shard, at] = command.input.ShardIterator!.split(':') as [string, string];
        const position = Number(at);
        const sequence = shards[shard]![position];
        if (sequence !== undefined && sequence === faults.expireAt && !raised.has('expire')) {
          raised.add('expire');
          throw failure('ExpiredIteratorException');
        }
        if (sequence !== undefined && sequence === faults.trimAt && !raised.has('trim')) {
          raised.add('trim');
          throw failure('TrimmedDataAccessException');
        }
        if (position >= shards[shard]!.length) {
          // Shard A is closed once read to its end, and its child becomes visible.
          if (shard === 'A') childVisible = true;
          return { Records: [], NextShardIterator: shard === 'A' ? undefined : `${shard}:${position}` };
        }
        return { Records: [record(shard, sequence!)], NextShardIterator: `${shard}:${position + 1}` };
      }
      throw new Error(`unexpected command ${String(command)}`);
    },
  };
  return { client: client as unknown as DynamoDBStreamsClient, calls };
}

async function run(faults: { expireAt?: number; trimAt?: number }) {
  const { client, calls } = scriptedStreams(faults);
  const seen: string[] = [];
  const mapping: StreamMappingSpec = {
    logicalId: 'Scripted',
    streamArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/1',
    startingPosition: 'TRIM_HORIZON',
    batchSize: 10,
    patterns: [],
    bisectOnError: false,
    reportBatchItemFailures: false,
    maxRetries: 0,
    maxRecordAgeSeconds: 86_400,
    target: { logicalId: 'Target', entry: 'test', timeoutSeconds: 5, memorySize: 128, environment: {}, invoke: async (event) => void seen.push(...(event as DynamoDBStreamEvent).Records.map((r) => r.eventID!)) },
  };
  const runner = startStreamSourceRunner(client, {} as SQSClient, [mapping], { pollIntervalMs: 5 });
  try {
    await waitFor(async () => seen.includes('B-6'), 10_000, 10);
  } finally {
    await runner.stop();
  }
  return { seen, calls };
}

describe('the local streams source', () => {
  it('reads a closed shard to its end, then its child shard from the start', async () => {
    const { seen, calls } = await run({});
    expect(seen).toEqual(['A-1', 'A-2', 'A-3', 'A-4', 'B-5', 'B-6']);
    expect(calls).toContain('iterator B TRIM_HORIZON');
  });

  it('renews an expired iterator after the last record it read, losing and repeating nothing', async () => {
    const { seen, calls } = await run({ expireAt: 3 });
    expect(seen).toEqual(['A-1', 'A-2', 'A-3', 'A-4', 'B-5', 'B-6']);
    expect(calls).toContain('iterator A AFTER_SEQUENCE_NUMBER 2');
  });

  it('carries on from the oldest record kept when records were trimmed before they were read', async () => {
    const { seen, calls } = await run({ trimAt: 2 });
    expect(calls.filter((call) => call === 'iterator A TRIM_HORIZON')).toHaveLength(2);
    expect(seen.slice(-2)).toEqual(['B-5', 'B-6']);
  });
});
