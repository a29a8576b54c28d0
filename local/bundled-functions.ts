/**
 * Runs the stack's functions from their synthesised bundles, as Lambda
 * would: each function's asset directory (the `index.mjs` and files `cdk
 * deploy` uploads) is imported by a process of its own (local/lambda-host.mjs)
 * with the function's environment from the template and nothing of this
 * process's but the emulator's endpoint and credentials. An instance serves
 * one invocation at a time; a busy function starts another instance (a cold
 * start) up to its reserved concurrency or `maxInstances`; an invocation that
 * outlives the function's timeout, or leaves the instance above the
 * function's memory size, fails and ends its instance, as Lambda ends the
 * sandbox.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeFunctions, type LocalFunction } from './lambda-functions.js';
import type { ResourceMap } from './provision.js';
import type { BundledAssembly } from './template.js';
import { signalActivity } from './poll-pacing.js';

const HOST = fileURLToPath(new URL('./lambda-host.mjs', import.meta.url));

/** What a cold start cost: the bundle's import (Lambda's "Init Duration") and the process start around it. */
export interface ColdStart {
  readonly initMs: number;
  readonly spawnToReadyMs: number;
  /** The first invocation's duration on the new instance. */
  firstInvocationMs?: number;
}

export interface BundledFunction extends LocalFunction {
  readonly assetDirectory: string;
  /** Every instance started so far, oldest first. */
  readonly coldStarts: readonly ColdStart[];
  /** The highest "Max Memory Used" any instance reported, in MB. */
  readonly maxMemoryUsedMb: number;
  /** Invocations so far, and how many of them failed (an error, a timeout, a crash). */
  readonly invocations: number;
  readonly errors: number;
  /** Ends the idle instances, so the next invocation starts cold (benchmarks of cold starts). */
  recycle(): Promise<void>;
  stop(): Promise<void>;
}

export interface BundledFunctionOptions {
  /** Instances per function at most (Lambda's own limit is the account's concurrency). @default 4 */
  readonly maxInstances?: number;
}

/** Variables of this process an instance inherits: how to reach the emulator, and the log and metric switches. */
const INHERITED = /^(AWS_ENDPOINT_URL.*|AWS_ACCESS_KEY_ID|AWS_SECRET_ACCESS_KEY|AWS_SESSION_TOKEN|POWERTOOLS_.*|PATH|HOME)$/;

export function loadBundledFunctions(assembly: BundledAssembly, resources: ResourceMap, options: BundledFunctionOptions = {}): Map<string, BundledFunction> {
  const functions = new Map<string, BundledFunction>();
  for (const spec of describeFunctions(assembly.template, resources)) {
    const resource = assembly.template.Resources[spec.logicalId]!;
    const assetPath = resource.Metadata?.['aws:asset:path'];
    if (typeof assetPath !== 'string') throw new Error(`${spec.logicalId} has no bundled asset (was the stack synthesised with bundling?)`);
    const props = resource.Properties ?? {};
    const reserved = typeof props.ReservedConcurrentExecutions === 'number' ? props.ReservedConcurrentExecutions : undefined;
    const limit = Math.max(1, Math.min(reserved ?? Number.POSITIVE_INFINITY, options.maxInstances ?? 4));
    const region = process.env.AWS_REGION ?? 'us-east-1';
    const environment: Record<string, string> = {
      ...Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => INHERITED.test(entry[0]) && entry[1] !== undefined)),
      ...spec.environment,
      AWS_REGION: region,
      AWS_DEFAULT_REGION: region,
      AWS_LAMBDA_FUNCTION_NAME: spec.logicalId,
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(spec.memorySize),
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_EXECUTION_ENV: `AWS_Lambda_${String(props.Runtime ?? 'nodejs22.x')}`,
      LAMBDA_TASK_ROOT: join(assembly.directory, assetPath),
      _HANDLER: String(props.Handler ?? 'index.handler'),
      TZ: 'UTC',
      // Lambda runs Node.js 22; the SDK's notice that it will need 22 only concerns this machine's Node.js 20.
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    };
    functions.set(spec.logicalId, new InstancePool(spec, join(assembly.directory, assetPath), environment, limit));
  }
  return functions;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** One process running one function's bundle. */
class Instance {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  busy = false;
  invocations = 0;
  /** Set when the instance is ready; the first invocation's duration is added to it. */
  coldStart: ColdStart | undefined;
  maxMemoryUsedMb = 0;
  private pending: Pending | undefined;
  private exited = false;

  constructor(
    environment: Record<string, string>,
    private readonly onExit: (instance: Instance) => void,
  ) {
    const spawned = performance.now();
    // NODE_OPTIONS comes from the template (e.g. --enable-source-maps), as Lambda passes it.
    this.child = fork(HOST, [], { env: environment, execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'json' });
    this.ready = new Promise<void>((resolve, reject) => {
      this.child.once('message', (message: HostMessage) => {
        if (message.type === 'ready') {
          this.maxMemoryUsedMb = message.maxMemoryUsedMb;
          this.coldStart = { initMs: message.initMs, spawnToReadyMs: performance.now() - spawned };
          resolve();
        } else if (message.type === 'init-error') {
          reject(invocationError(message.error, 'Runtime.ImportModuleError'));
          this.kill();
        }
      });
      this.child.once('exit', (code, signal) => reject(new Error(`Runtime exited before init completed (${signal ?? code})`)));
    });
    this.ready.catch(() => {});
    this.child.on('message', (message: HostMessage) => {
      if (message.type !== 'result' || !this.pending) return;
      this.maxMemoryUsedMb = message.maxMemoryUsedMb;
      const pending = this.pending;
      this.pending = undefined;
      if (message.ok) pending.resolve(message.value);
      else pending.reject(invocationError(message.error));
    });
    this.child.on('exit', (code, signal) => {
      this.exited = true;
      this.pending?.reject(new Error(`Runtime exited with error: ${signal ? `signal: ${signal}` : `exit status ${code}`}`));
      this.pending = undefined;
      this.onExit(this);
    });
  }

  invoke(event: unknown, deadline: number): Promise<unknown> {
    if (this.exited) return Promise.reject(new Error('Runtime exited'));
    return new Promise<unknown>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.child.send({ type: 'invoke', id: this.invocations, event, deadline });
    });
  }

  kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }
}

type HostMessage =
  | { type: 'ready'; initMs: number; maxMemoryUsedMb: number }
  | { type: 'init-error'; error: HostError; initMs: number }
  | { type: 'result'; id: number; ok: true; value: unknown; durationMs: number; maxMemoryUsedMb: number }
  | { type: 'result'; id: number; ok: false; error: HostError; durationMs: number; maxMemoryUsedMb: number };

interface HostError {
  readonly errorType: string;
  readonly errorMessage: string;
  readonly stack?: string;
}

/** Kills an instance and waits for its process to be gone. */
function ended(instance: Instance): Promise<void> {
  return new Promise<void>((resolve) => {
    if (instance.child.exitCode !== null || instance.child.signalCode !== null) return resolve();
    instance.child.once('exit', () => resolve());
    instance.kill();
  });
}

function invocationError(error: HostError, type = error.errorType): Error {
  const result = new Error(error.errorMessage);
  result.name = type;
  if (error.stack) result.stack = error.stack;
  return result;
}

/** One function's instances: reused while warm, started when all are busy, up to the limit. */
class InstancePool implements BundledFunction {
  readonly logicalId: string;
  readonly entry: string;
  readonly timeoutSeconds: number;
  readonly memorySize: number;
  readonly environment: Readonly<Record<string, string>>;
  readonly coldStarts: ColdStart[] = [];
  maxMemoryUsedMb = 0;
  invocations = 0;
  errors = 0;
  private readonly instances = new Set<Instance>();
  private readonly waiting: (() => void)[] = [];
  private stopped = false;

  constructor(
    spec: Omit<LocalFunction, 'invoke'>,
    readonly assetDirectory: string,
    private readonly instanceEnvironment: Record<string, string>,
    private readonly limit: number,
  ) {
    this.logicalId = spec.logicalId;
    this.entry = spec.entry;
    this.timeoutSeconds = spec.timeoutSeconds;
    this.memorySize = spec.memorySize;
    this.environment = spec.environment;
  }

  async invoke(event: unknown): Promise<unknown> {
    const instance = await this.acquire();
    const firstInvocation = instance.invocations === 0;
    const deadline = Date.now() + this.timeoutSeconds * 1000;
    let timer: NodeJS.Timeout | undefined;
    const started = performance.now();
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          // Lambda ends a timed-out sandbox; the next invocation starts cold.
          instance.kill();
          reject(new Error(`Task timed out after ${this.timeoutSeconds} seconds`));
        }, Math.max(0, deadline - Date.now()));
      });
      const value = await Promise.race([instance.invoke(event, deadline), timeout]);
      if (instance.maxMemoryUsedMb > this.memorySize) {
        instance.kill();
        throw new Error(`Runtime exited with error: signal: killed (max memory used ${instance.maxMemoryUsedMb} MB of ${this.memorySize} MB)`);
      }
      return value;
    } catch (error) {
      this.errors += 1;
      throw error;
    } finally {
      clearTimeout(timer);
      this.invocations += 1;
      this.maxMemoryUsedMb = Math.max(this.maxMemoryUsedMb, instance.maxMemoryUsedMb);
      if (firstInvocation && instance.coldStart) instance.coldStart.firstInvocationMs = performance.now() - started;
      instance.busy = false;
      instance.invocations += 1;
      this.waiting.shift()?.();
      // Whatever the invocation wrote (a job, a summary) is there for the pollers now.
      signalActivity();
    }
  }

  private async acquire(): Promise<Instance> {
    for (;;) {
      if (this.stopped) throw new Error(`${this.logicalId} is stopped`);
      const idle = [...this.instances].find((instance) => !instance.busy);
      if (idle) {
        idle.busy = true;
        return idle;
      }
      if (this.instances.size < this.limit) {
        const instance = new Instance(this.instanceEnvironment, (gone) => {
          this.instances.delete(gone);
          this.waiting.shift()?.();
        });
        instance.busy = true;
        this.instances.add(instance);
        try {
          await instance.ready;
        } catch (error) {
          instance.kill();
          this.instances.delete(instance);
          this.waiting.shift()?.();
          throw error;
        }
        this.coldStarts.push(instance.coldStart!);
        return instance;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  async recycle(): Promise<void> {
    await Promise.all([...this.instances].filter((instance) => !instance.busy).map(ended));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const wake of this.waiting.splice(0)) wake();
    await Promise.all([...this.instances].map(ended));
  }
}
