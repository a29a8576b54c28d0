/**
 * Loads the stack's Lambda functions for local invocation: the entry file
 * comes from the template's metadata, the environment from the template's
 * resolved variables, the timeout from the function's own setting. The
 * exported `handler` is the same function Lambda runs.
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from 'aws-lambda';
import { ENTRY_METADATA_KEY } from '../lib/constructs/service-function.js';
import { resolveValue, type ResourceMap } from './provision.js';
import { lambdaContext } from './lambda-events.js';
import type { CfnTemplate } from './template.js';
import { provideRuntimeWrappers } from '../functions/commons/runtime/aws.js';
import type { LocalFaults } from './fault-injection.js';
import type { EmbeddingPort } from '../functions/ports/embeddings.js';
import { signalActivity } from './poll-pacing.js';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

export interface LocalFunction {
  readonly logicalId: string;
  readonly entry: string;
  readonly timeoutSeconds: number;
  readonly memorySize: number;
  readonly environment: Readonly<Record<string, string>>;
  invoke(event: unknown): Promise<unknown>;
}

type Handler = (event: unknown, context: Context) => Promise<unknown>;

/** Lists the functions in the template with their resolved settings. */
export function describeFunctions(template: CfnTemplate, resources: ResourceMap) {
  return Object.entries(template.Resources)
    .filter(([, resource]) => resource.Type === 'AWS::Lambda::Function' && resource.Metadata?.[ENTRY_METADATA_KEY])
    .map(([logicalId, resource]) => {
      const props = resource.Properties ?? {};
      const variables = ((props.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {});
      const environment = Object.fromEntries(
        Object.entries(variables).map(([name, value]) => [name, resolveValue(value, resources)]),
      );
      return {
        logicalId,
        entry: String(resource.Metadata![ENTRY_METADATA_KEY]),
        timeoutSeconds: Number(props.Timeout ?? 3),
        memorySize: Number(props.MemorySize ?? 128),
        environment,
      };
    });
}

/**
 * Sets the functions' environment on this process, as Lambda sets each
 * function's on its own: all functions share one process here, so two
 * functions that give one variable different values are refused.
 */
export function shareFunctionEnvironment(specs: readonly Pick<LocalFunction, 'environment'>[]): void {
  const merged: Record<string, string> = {};
  for (const spec of specs) {
    for (const [name, value] of Object.entries(spec.environment)) {
      if (merged[name] !== undefined && merged[name] !== value) {
        throw new Error(`functions disagree on ${name} (${merged[name]} vs ${value}); the local runtime shares one process`);
      }
      merged[name] = value;
    }
  }
  delete merged.NODE_OPTIONS;
  Object.assign(process.env, merged);
}

/**
 * Sets each function's environment on this process (as Lambda would) and
 * imports its handler. All functions share one process, so two functions that
 * give one variable different values are refused.
 */
export async function loadFunctions(
  template: CfnTemplate,
  resources: ResourceMap,
  options: {
    /** Local only: the functions' shared clients and model are wrapped, and every invocation too (`local/fault-injection.ts`). */
    readonly faults?: LocalFaults;
  } = {},
): Promise<Map<string, LocalFunction>> {
  const specs = describeFunctions(template, resources);
  shareFunctionEnvironment(specs);
  const faults = options.faults;
  // Before any handler is imported: each builds the process-wide clients and model on import.
  provideRuntimeWrappers(
    faults
      ? {
          clients: (clients) => faults.wrapClients(clients),
          model: (model) => faults.wrapModel(model),
          ...(faults.wrapEmbeddings ? { embeddings: (port: EmbeddingPort) => faults.wrapEmbeddings!(port) } : {}),
        }
      : {},
  );

  const functions = new Map<string, LocalFunction>();
  for (const spec of specs) {
    const module = (await import(pathToFileURL(join(projectRoot, spec.entry)).href)) as { handler?: Handler };
    const handler = module.handler;
    if (typeof handler !== 'function') throw new Error(`${spec.entry} exports no handler`);
    functions.set(spec.logicalId, {
      ...spec,
      invoke: faults
        ? (event) => faults.wrapInvocation(spec.logicalId, () => invokeWithTimeout(spec.logicalId, handler, event, spec.timeoutSeconds, spec.memorySize))
        : (event) => invokeWithTimeout(spec.logicalId, handler, event, spec.timeoutSeconds, spec.memorySize),
    });
  }
  return functions;
}

async function invokeWithTimeout(
  functionName: string,
  handler: Handler,
  event: unknown,
  timeoutSeconds: number,
  memorySize: number,
): Promise<unknown> {
  const deadline = Date.now() + timeoutSeconds * 1000;
  const context: Context = {
    ...lambdaContext(functionName),
    memoryLimitInMB: String(memorySize),
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Task timed out after ${timeoutSeconds} seconds`)), timeoutSeconds * 1000);
  });
  try {
    return await Promise.race([handler(event, context), timeout]);
  } finally {
    clearTimeout(timer);
    // Whatever the invocation wrote (a job, a summary) is there for the pollers now.
    signalActivity();
  }
}
