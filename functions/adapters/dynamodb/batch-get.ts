/** BatchGetItem over any number of keys: chunks of 100, unprocessed keys retried with backoff. */
import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { chunk } from '../../domain/sequencing.js';

const BATCH_GET_LIMIT = 100;

export async function batchGetAll(
  client: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly Record<string, unknown>[],
): Promise<Record<string, unknown>[]> {
  const parts = await Promise.all(
    chunk(keys, BATCH_GET_LIMIT).map(async (part) => {
      const found: Record<string, unknown>[] = [];
      let request: Record<string, { Keys: Record<string, unknown>[]; ConsistentRead: boolean }> | undefined = {
        [tableName]: { Keys: part, ConsistentRead: true },
      };
      for (let attempt = 0; request && Object.keys(request).length > 0; attempt += 1) {
        if (attempt > 0) await sleep(Math.min(1_000, 20 * 2 ** attempt));
        const output = await client.send(new BatchGetCommand({ RequestItems: request }));
        found.push(...(output.Responses?.[tableName] ?? []));
        request = output.UnprocessedKeys as typeof request;
      }
      return found;
    }),
  );
  return parts.flat();
}
