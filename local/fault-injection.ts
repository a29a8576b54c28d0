/**
 * Faults for the local stack (`npm run chaos`, test/integration/chaos.test.ts),
 * never part of a deployed stack: `startLocalStack({ faults })` hands the
 * functions' shared AWS clients and model port to the injector before their
 * handlers are imported, and wraps every invocation.
 *
 * - AWS calls (S3, DynamoDB, SQS) made by the functions fail at `awsRate`
 *   with a retryable server error, above the SDK's retry layer (as an outage
 *   midway through a request would look once the SDK has given up);
 * - model calls fail at `modelFailRate` (`ModelCallError`) and time out at
 *   `modelTimeoutRate` (the call hangs for `modelTimeoutMs`, then fails);
 * - invocations are killed midway at `killRate`: the invocation is abandoned
 *   after a random number of its AWS calls (or at its end, when it makes
 *   fewer), as Lambda abandons one on a timeout. The caller sees the
 *   failure (SQS: the messages stay and become visible again; streams: the
 *   batch is retried; HTTP: a 5xx). The abandoned continuation cannot write
 *   anything more: every later AWS or model call it makes fails, as a frozen
 *   or recycled Lambda sandbox would never make it.
 *
 * Every decision comes from one seeded generator, so a run is reproducible up
 * to the interleaving of concurrent calls.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AwsClients } from '../functions/commons/clients.js';
import { mulberry32 } from '../scripts/corpus/random.js';
import { ModelCallError, type ModelPort, type ModelRequest, type ModelResponse } from '../functions/ports/model.js';
import type { EmbeddingPort } from '../functions/ports/embeddings.js';

export interface FaultRates {
  /** Probability that one AWS call of a function fails. */
  readonly awsRate: number;
  readonly modelFailRate: number;
  readonly modelTimeoutRate: number;
  /** How long a timed-out model call hangs before it fails. @default 200 */
  readonly modelTimeoutMs?: number;
  /** Probability that one invocation is killed midway. */
  readonly killRate: number;
  /** A killed invocation stops after 1..maxCallsBeforeKill of its AWS calls. @default 12 */
  readonly maxCallsBeforeKill?: number;
  /** Functions (logical id prefixes) whose invocations may be killed. @default every function */
  readonly killFunctions?: readonly string[];
  readonly seed: number;
}

export interface FaultCounts {
  aws: Record<string, number>;
  model: { failed: number; timedOut: number };
  kills: Record<string, number>;
  /** Calls refused because their invocation had already been killed (not counted as faults). */
  afterKill: number;
}

/** What `startLocalStack` needs from a fault injector (or any wrapper of the functions' clients, model and invocations: the cost meter). */
export interface LocalFaults {
  wrapClients(clients: AwsClients): AwsClients;
  wrapModel(model: ModelPort): ModelPort;
  wrapEmbeddings?(embeddings: EmbeddingPort): EmbeddingPort;
  wrapInvocation(functionName: string, invoke: () => Promise<unknown>): Promise<unknown>;
}

interface Invocation {
  readonly functionName: string;
  /** Kill before this AWS call (1-based); undefined: not doomed. */
  readonly killAt?: number;
  calls: number;
  killed: boolean;
  kill?: (error: Error) => void;
}

export class InvocationKilledError extends Error {
  override readonly name = 'InvocationKilled';
}

export class FaultInjector implements LocalFaults {
  readonly counts: FaultCounts = { aws: {}, model: { failed: 0, timedOut: 0 }, kills: {}, afterKill: 0 };
  private readonly random: () => number;
  private readonly invocations = new AsyncLocalStorage<Invocation>();
  /** Faults are injected only while enabled (off for the final drain). */
  enabled = true;

  constructor(readonly rates: FaultRates) {
    this.random = mulberry32(rates.seed);
  }

  get total(): number {
    return (
      Object.values(this.counts.aws).reduce((a, b) => a + b, 0) +
      this.counts.model.failed +
      this.counts.model.timedOut +
      Object.values(this.counts.kills).reduce((a, b) => a + b, 0)
    );
  }

  wrapClients(clients: AwsClients): AwsClients {
    const services: [string, AwsClients[keyof AwsClients]][] = [['DynamoDB', clients.dynamo], ['S3', clients.s3], ['SQS', clients.sqs]];
    for (const [service, client] of services) {
      (client.middlewareStack as AwsClients['s3']['middlewareStack']).add(
        (next, context) => async (args) => {
          const command = (context as { commandName?: string }).commandName ?? 'unknown';
          this.beforeCall(`${service}.${command}`);
          return next(args);
        },
        { step: 'initialize', name: 'chaosFaults', priority: 'high' },
      );
    }
    return clients;
  }

  wrapModel(model: ModelPort): ModelPort {
    return {
      modelId: model.modelId,
      invoke: async (request: ModelRequest): Promise<ModelResponse> => {
        this.refuseIfKilled();
        if (this.enabled) {
          const roll = this.random();
          if (roll < this.rates.modelFailRate) {
            this.counts.model.failed += 1;
            throw new ModelCallError('injected model failure');
          }
          if (roll < this.rates.modelFailRate + this.rates.modelTimeoutRate) {
            this.counts.model.timedOut += 1;
            await new Promise((resolve) => setTimeout(resolve, this.rates.modelTimeoutMs ?? 200));
            throw new ModelCallError('injected model timeout');
          }
        }
        const response = await model.invoke(request);
        this.refuseIfKilled();
        return response;
      },
    };
  }

  wrapInvocation(functionName: string, invoke: () => Promise<unknown>): Promise<unknown> {
    const killable = this.enabled && (this.rates.killFunctions ?? [functionName]).some((prefix) => functionName.startsWith(prefix));
    const doomed = killable && this.random() < this.rates.killRate;
    const invocation: Invocation = {
      functionName,
      ...(doomed ? { killAt: 1 + Math.floor(this.random() * (this.rates.maxCallsBeforeKill ?? 12)) } : {}),
      calls: 0,
      killed: false,
    };
    return new Promise<unknown>((resolve, reject) => {
      invocation.kill = reject;
      this.invocations.run(invocation, () => {
        invoke().then(
          (result) => {
            // Fewer calls than the kill point: killed at its end, after its work, before it answered.
            if (invocation.killAt !== undefined && !invocation.killed) this.killNow(invocation);
            resolve(result);
          },
          (error: unknown) => reject(error),
        );
      });
    });
  }

  private beforeCall(name: string): void {
    const invocation = this.invocations.getStore();
    this.refuseIfKilled();
    if (invocation) {
      invocation.calls += 1;
      if (invocation.killAt !== undefined && invocation.calls >= invocation.killAt) {
        this.killNow(invocation);
        this.refuseIfKilled();
      }
    }
    if (this.enabled && invocation && this.random() < this.rates.awsRate) {
      this.counts.aws[name] = (this.counts.aws[name] ?? 0) + 1;
      throw Object.assign(new Error(`injected outage on ${name}`), { name: 'ServiceUnavailable', $fault: 'server', $metadata: { httpStatusCode: 503 } });
    }
  }

  private killNow(invocation: Invocation): void {
    invocation.killed = true;
    this.counts.kills[invocation.functionName] = (this.counts.kills[invocation.functionName] ?? 0) + 1;
    invocation.kill?.(new InvocationKilledError(`${invocation.functionName} killed midway after ${invocation.calls} AWS call(s)`));
  }

  private refuseIfKilled(): void {
    const invocation = this.invocations.getStore();
    if (invocation?.killed) {
      this.counts.afterKill += 1;
      throw new InvocationKilledError(`${invocation.functionName} was killed; this call is never made`);
    }
  }
}
