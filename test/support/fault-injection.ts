/**
 * Fault injection for AWS SDK clients that talk to the real emulator: a
 * middleware above the retry layer fails chosen calls, as an outage midway
 * through a request would.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SQSClient } from '@aws-sdk/client-sqs';

export interface FaultPlan {
  /** Command name, e.g. `PutObjectCommand`. */
  readonly command: string;
  /** 1-based call numbers (counted per command, among calls `when` selects) that fail. */
  readonly failCalls: readonly number[] | 'all';
  /** Only calls whose input this accepts are counted (and can fail); default: every call of the command. */
  readonly when?: (input: Record<string, unknown>) => boolean;
}

export function injectFaults(client: S3Client | SQSClient | DynamoDBClient, plan: FaultPlan) {
  let calls = 0;
  const state = { failures: 0 };
  (client.middlewareStack as S3Client['middlewareStack']).add(
    (next, context) => async (args) => {
      if ((context as { commandName?: string }).commandName === plan.command && (!plan.when || plan.when(args.input as Record<string, unknown>))) {
        calls += 1;
        if (plan.failCalls === 'all' || plan.failCalls.includes(calls)) {
          state.failures += 1;
          throw Object.assign(new Error(`injected outage on ${plan.command} call ${calls}`), {
            name: 'ServiceUnavailable',
            $fault: 'server',
          });
        }
      }
      return next(args);
    },
    { step: 'initialize', name: 'injectFaults' },
  );
  return state;
}
