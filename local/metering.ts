/**
 * The cost benchmark's meter (`npm run bench -- cost`), local only: wraps the
 * functions' shared AWS clients, model port, embedding port and every
 * invocation (the same hooks fault injection uses) and counts each billable
 * unit as the run happens: requests per AWS operation, DynamoDB read and write
 * request units (from item sizes, as DynamoDB computes them; transactions
 * count double), S3 and SQS requests and bytes, model input and output tokens
 * per call site (the static part of each prompt apart, for prompt caching),
 * embedded tokens, and each function's invocations and measured durations.
 * Pricing is the benchmark's, from a dated table (scripts/bench/prices.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AwsClients } from '../functions/commons/clients.js';
import { countTokens } from '../functions/commons/tokens.js';
import { toolSchema } from '../functions/adapters/models/tool-schema.js';
import type { EmbeddingPort } from '../functions/ports/embeddings.js';
import type { ModelPort, ModelRequest, ModelResponse } from '../functions/ports/model.js';
import type { LocalFaults } from './fault-injection.js';

export interface ModelSiteUsage {
  calls: number;
  /** Every input token a hosted model would bill: system prompt, tool schema and the request itself. */
  inputTokens: number;
  /** Of those, the part that is the same on every call of the site (system prompt and tool schema): what a cache point covers. */
  staticTokens: number;
  outputTokens: number;
}

export interface InvocationUsage {
  count: number;
  /** Summed wall time of the invocations, in ms. */
  totalMs: number;
  /** Lambda bills each invocation rounded up to the millisecond: summed here. */
  billedMs: number;
  /** Each invocation's billed ms, in order (for medians: one process hosts every function here, so a few invocations wait behind another's CPU work). */
  readonly durations: number[];
}

/** What one function's invocations did to AWS (or, under `outside`, the local stack's own calls). */
export interface AwsUsage {
  /** Requests per `<service>.<operation>`. */
  readonly operations: Record<string, number>;
  dynamoReadUnits: number;
  dynamoWriteUnits: number;
  s3PutBytes: number;
  /** SQS requests, each 64 KB of payload a request of its own (as SQS bills them). */
  sqsRequests: number;
}

export interface MeteredUsage {
  /** By function logical id. */
  readonly aws: Record<string, AwsUsage>;
  readonly model: Record<string, ModelSiteUsage>;
  embeddedTokens: number;
  embedCalls: number;
  readonly invocations: Record<string, InvocationUsage>;
}

/** Calls made outside any invocation (provisioning, the local runners): not the deployed service's. */
export const OUTSIDE = 'outside';

/**
 * DynamoDB's size of an item, as its documentation counts it: each attribute's
 * name in UTF-8 plus its value (a string in UTF-8, a binary in bytes, a number
 * about one byte per two digits plus one, a boolean or null one byte, a list or
 * map three bytes plus one per element, plus the elements and a map's names).
 * Takes the low-level form (`{ S: … }`, `{ B: Uint8Array }`) or plain values.
 * Binary attributes (gzip blobs: audit entries, views, snapshots) count their
 * bytes, not their JSON spelling, which is several times longer.
 */
export function itemBytes(item: unknown): number {
  if (item === undefined || item === null || typeof item !== 'object') return 0;
  return Object.entries(item as Record<string, unknown>).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueBytes(value), 0);
}

const TYPE_TAGS = new Set(['S', 'N', 'B', 'BOOL', 'NULL', 'L', 'M', 'SS', 'NS', 'BS']);
/** Significant digits, leading and trailing zeros trimmed (as DynamoDB stores a number), about one byte per two, plus one. */
const numberBytes = (value: unknown) => Math.ceil(Math.max(1, String(value).replace(/^-|e.*$/gi, '').replace('.', '').replace(/^0+|0+$/g, '').length) / 2) + 1;

function valueBytes(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number' || typeof value === 'bigint') return numberBytes(value);
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...value].reduce<number>((sum, member) => sum + valueBytes(member), 0);
  if (Array.isArray(value)) return 3 + value.reduce<number>((sum, element) => sum + 1 + valueBytes(element), 0);
  if (typeof value !== 'object') return 0;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 1 && TYPE_TAGS.has(entries[0]![0])) {
    const [tag, inner] = entries[0]!;
    if (tag === 'N') return numberBytes(inner);
    if (tag === 'NS') return (inner as unknown[]).reduce<number>((sum, n) => sum + numberBytes(n), 0);
    if (tag === 'SS' || tag === 'BS') return [...(inner as Iterable<unknown>)].reduce<number>((sum, member) => sum + valueBytes(member), 0);
    if (tag === 'M') return 3 + Object.entries(inner as Record<string, unknown>).reduce((sum, [name, element]) => sum + 1 + Buffer.byteLength(name) + valueBytes(element), 0);
    return valueBytes(inner);
  }
  return 3 + entries.reduce((sum, [name, element]) => sum + 1 + Buffer.byteLength(name) + valueBytes(element), 0);
}

const writeUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));
/** Read units of `bytes` read in one request: 4 KB per unit, half for an eventually consistent read. */
const readUnits = (bytes: number, consistent: boolean) => Math.max(1, Math.ceil(bytes / 4096)) * (consistent ? 1 : 0.5);

type Input = Record<string, unknown>;

/** DynamoDB's low-level command names, as the document client's (the units are the same). */
const LOW_LEVEL: Readonly<Record<string, string>> = {
  PutItemCommand: 'PutCommand',
  UpdateItemCommand: 'UpdateCommand',
  DeleteItemCommand: 'DeleteCommand',
  GetItemCommand: 'GetCommand',
  BatchGetItemCommand: 'BatchGetCommand',
  BatchWriteItemCommand: 'BatchWriteCommand',
  TransactWriteItemsCommand: 'TransactWriteCommand',
  TransactGetItemsCommand: 'TransactGetCommand',
};

/** The call site of a model request: the updater, or the summary's ladder and level. */
export function modelSite(request: ModelRequest): string {
  return request.task === 'summary' ? `summary:${request.input.ladder}:${request.input.level}` : request.task;
}

export class UsageMeter implements LocalFaults {
  usage: MeteredUsage = UsageMeter.empty();
  /** Which function's invocation a call belongs to. */
  private readonly current = new AsyncLocalStorage<string>();

  private static empty(): MeteredUsage {
    return { aws: {}, model: {}, embeddedTokens: 0, embedCalls: 0, invocations: {} };
  }

  /** Starts counting again (after provisioning and warm-up). */
  reset(): void {
    this.usage = UsageMeter.empty();
  }

  private aws(): AwsUsage {
    const name = this.current.getStore() ?? OUTSIDE;
    return (this.usage.aws[name] ??= { operations: {}, dynamoReadUnits: 0, dynamoWriteUnits: 0, s3PutBytes: 0, sqsRequests: 0 });
  }

  private dynamo(usage: AwsUsage, command: string, input: Input, output: Input): void {
    const items = (list: unknown) => ((list as unknown[] | undefined) ?? []);
    // The functions' document clients send the low-level commands through this client (PutItemCommand, ...).
    switch (LOW_LEVEL[command] ?? command) {
      case 'PutCommand':
        usage.dynamoWriteUnits += writeUnits(itemBytes(input.Item));
        break;
      case 'UpdateCommand':
      case 'DeleteCommand':
        // DynamoDB bills the larger of the item before and after; the new values and key are a lower bound, the old item (when returned) the rest.
        usage.dynamoWriteUnits += writeUnits(Math.max(itemBytes(input.Key) + itemBytes(input.ExpressionAttributeValues), itemBytes(output.Attributes)));
        break;
      case 'GetCommand':
        usage.dynamoReadUnits += readUnits(itemBytes(output.Item), input.ConsistentRead === true);
        break;
      case 'QueryCommand':
      case 'ScanCommand':
        usage.dynamoReadUnits += readUnits(items(output.Items).reduce<number>((sum, item) => sum + itemBytes(item), 0), input.ConsistentRead === true);
        break;
      case 'BatchGetCommand':
        for (const list of Object.values((output.Responses ?? {}) as Record<string, unknown[]>)) for (const item of list) usage.dynamoReadUnits += readUnits(itemBytes(item), false);
        break;
      case 'BatchWriteCommand':
        for (const list of Object.values((input.RequestItems ?? {}) as Record<string, Input[]>)) for (const request of list) usage.dynamoWriteUnits += writeUnits(itemBytes((request.PutRequest as Input | undefined)?.Item ?? (request.DeleteRequest as Input | undefined)?.Key));
        break;
      case 'TransactWriteCommand':
        // Every item of a transaction, condition checks included, at twice the units.
        for (const entry of items(input.TransactItems) as Input[]) {
          const part = (entry.Put ?? entry.Update ?? entry.Delete ?? entry.ConditionCheck) as Input | undefined;
          usage.dynamoWriteUnits += 2 * writeUnits(itemBytes(part?.Item) || itemBytes(part?.Key) + itemBytes(part?.ExpressionAttributeValues));
        }
        break;
      case 'TransactGetCommand':
        for (const response of items(output.Responses) as Input[]) usage.dynamoReadUnits += 2 * readUnits(itemBytes(response.Item), true);
        break;
    }
  }

  wrapClients(clients: AwsClients): AwsClients {
    const meter = (service: string, client: { middlewareStack: AwsClients['s3']['middlewareStack'] }) =>
      client.middlewareStack.add(
        (next, context) => async (args) => {
          const command = (context as { commandName?: string }).commandName ?? 'unknown';
          const input = (args as { input: Input }).input;
          const usage = this.aws();
          const operation = `${service}.${command.replace(/Command$/, '')}`;
          usage.operations[operation] = (usage.operations[operation] ?? 0) + 1;
          if (service === 'S3' && command === 'PutObjectCommand') {
            const body = input.Body;
            usage.s3PutBytes += typeof body === 'string' ? Buffer.byteLength(body) : body instanceof Uint8Array ? body.byteLength : 0;
          }
          if (service === 'SQS') {
            const bodies = command === 'SendMessageBatchCommand' ? ((input.Entries as Input[] | undefined) ?? []).map((e) => String(e.MessageBody ?? '')) : [String(input.MessageBody ?? '')];
            usage.sqsRequests += Math.max(1, Math.ceil(bodies.reduce((sum, body) => sum + Buffer.byteLength(body), 0) / 65_536));
          }
          const result = await next(args);
          if (service === 'DynamoDB') this.dynamo(usage, command, input, (result as unknown as { output?: Input }).output ?? {});
          return result;
        },
        { step: 'initialize', name: 'costMeter', priority: 'low' },
      );
    meter('DynamoDB', clients.dynamo as unknown as { middlewareStack: AwsClients['s3']['middlewareStack'] });
    meter('S3', clients.s3);
    meter('SQS', clients.sqs as unknown as { middlewareStack: AwsClients['s3']['middlewareStack'] });
    return clients;
  }

  wrapModel(model: ModelPort): ModelPort {
    return {
      modelId: model.modelId,
      invoke: async (request: ModelRequest): Promise<ModelResponse> => {
        const response = await model.invoke(request);
        const site = (this.usage.model[modelSite(request)] ??= { calls: 0, inputTokens: 0, staticTokens: 0, outputTokens: 0 });
        // What a hosted model is sent: the system prompt, the output contract as a tool, and the request.
        const staticTokens = countTokens(request.prompt.system) + countTokens(JSON.stringify(toolSchema(request)));
        site.calls += 1;
        site.staticTokens += staticTokens;
        site.inputTokens += staticTokens + countTokens(request.prompt.user);
        site.outputTokens += response.usage.outputTokens;
        return response;
      },
    };
  }

  wrapEmbeddings(embeddings: EmbeddingPort): EmbeddingPort {
    return {
      modelId: embeddings.modelId,
      dimensions: embeddings.dimensions,
      embed: async (texts) => {
        this.usage.embedCalls += 1;
        this.usage.embeddedTokens += texts.reduce((sum, text) => sum + countTokens(text), 0);
        return embeddings.embed(texts);
      },
    };
  }

  async wrapInvocation(functionName: string, invoke: () => Promise<unknown>): Promise<unknown> {
    const started = performance.now();
    try {
      return await this.current.run(functionName, invoke);
    } finally {
      const ms = performance.now() - started;
      const entry = (this.usage.invocations[functionName] ??= { count: 0, totalMs: 0, billedMs: 0, durations: [] });
      entry.count += 1;
      entry.totalMs += ms;
      entry.billedMs += Math.ceil(ms);
      entry.durations.push(Math.ceil(ms));
    }
  }
}
