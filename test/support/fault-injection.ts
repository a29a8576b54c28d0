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
  /** 1-based call numbers (counted per command) that fail. */
  readonly failCalls: readonly number[];
}

export function injectFaults(client: S3Client | SQSClient | DynamoDBClient, plan: FaultPlan) {
  let calls = 0;
  const state = { failures: 0 };
  (client.middlewareStack as S3Client['middlewareStack']).add(
    (next, context) => async (args) => {
      if ((context as { commandName?: string }).commandName === plan.command) {
        calls += 1;
        if (plan.failCalls.includes(calls)) {
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
