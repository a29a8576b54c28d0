/** The local stack a chaos run uses: faults installed, and a consolidation queue that redelivers soon after a kill. */
import { SetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { Duration } from 'aws-cdk-lib';
import { FaultInjector, type FaultRates } from '../../local/fault-injection.js';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '../../local/local-stack.js';

export interface ChaosStackOptions extends Omit<LocalStackOptions, 'faults' | 'stackProps'> {
  readonly rates: FaultRates;
  /** Consolidator timeout; the local runtime enforces it. */
  readonly consolidatorTimeoutSeconds: number;
  readonly batchSize?: number;
}

/**
 * The stack sets the consolidation queue's visibility timeout to 6x the
 * consolidator's (AWS's advice); a run here would mostly wait for it after
 * each kill. It is lowered to the consolidator's timeout plus 2 s, which
 * keeps the property that matters: a message never reappears while an
 * invocation that holds it can still be running.
 */
export async function startChaosStack(options: ChaosStackOptions): Promise<{ stack: LocalStack; faults: FaultInjector }> {
  const faults = new FaultInjector(options.rates);
  const { rates: _rates, consolidatorTimeoutSeconds, batchSize, ...rest } = options;
  const stack = await startLocalStack({
    ...rest,
    faults,
    // Faults can spend a ladder announcement's retries: the sweep after the faults checks the ladders at once.
    stackProps: { consolidatorTimeout: Duration.seconds(consolidatorTimeoutSeconds), ladderCheckAfter: Duration.minutes(0), ...(batchSize ? { batchSize } : {}) },
  });
  await stack.clients.sqs.send(
    new SetQueueAttributesCommand({
      QueueUrl: stack.resourceRef('AWS::SQS::Queue', 'ConsolidationQueue'),
      Attributes: { VisibilityTimeout: String(consolidatorTimeoutSeconds + 2) },
    }),
  );
  return { stack, faults };
}

/** Every kind of fault at one rate, except AWS calls (many per invocation) at a fifth of it. */
export function ratesFor(faultRate: number, seed: number): FaultRates {
  return { awsRate: faultRate / 5, modelFailRate: faultRate, modelTimeoutRate: faultRate, killRate: faultRate, seed };
}
