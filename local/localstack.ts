/**
 * LocalStack as a plain host process, no Docker: its runtime from PyPI in a
 * project-local virtualenv, DynamoDB Local from Maven Central laid out where
 * LocalStack looks for it, both under `.localstack/` (gitignored; the Maven
 * repository there is a cache). Set up on first use, started on a free
 * loopback port, healthy before it is handed out, and stopped with every
 * process it started: LocalStack's own process group, and the DynamoDB Local
 * JVM it launches in a session of its own (found by our directory in its
 * command line, never by name).
 *
 * Versions are pinned: LocalStack by its release and the constraints file
 * beside this module (the freeze of an install that passed the suite), so an
 * upstream release of any of its ~150 dependencies cannot change what runs.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { withInstallLock, type Emulator } from './emulator.js';

export const LOCALSTACK_VERSION = '2026.3.0';
export const DYNAMODB_LOCAL_VERSION = '3.3.1';
/** The services the stack uses; loaded eagerly so the first request does not pay for it. */
export const LOCALSTACK_SERVICES = ['s3', 'sqs', 'dynamodb', 'dynamodbstreams', 'secretsmanager'] as const;

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const setupDir = join(projectRoot, 'local', 'localstack');
const root = join(projectRoot, '.localstack');
const venvDir = join(root, 'venv');
const filesystemRoot = join(root, 'fs');
const installedMarker = join(root, `.localstack-${LOCALSTACK_VERSION}-ddb-${DYNAMODB_LOCAL_VERSION}-installed`);

export class LocalStackSetupError extends Error {
  override readonly name = 'LocalStackSetupError';
}

/** The interpreter LocalStack needs (3.12 or newer: its code uses PEP 695 generics). */
function python(): string {
  // pyenv keeps versions it has not activated out of PATH (its shims refuse them): look in its versions too.
  const pyenvRoot = process.env.PYENV_ROOT ?? join(process.env.HOME ?? '/root', '.pyenv');
  const pyenv = existsSync(join(pyenvRoot, 'versions'))
    ? readdirSync(join(pyenvRoot, 'versions'))
        .filter((version) => /^3\.(1[2-9]|[2-9]\d)\.\d+$/.test(version))
        .sort((a, b) => b.localeCompare(a, undefined, { numeric: true }))
        .map((version) => join(pyenvRoot, 'versions', version, 'bin', 'python3'))
    : [];
  for (const candidate of [process.env.LOCALSTACK_PYTHON, 'python3.13', 'python3.12', ...pyenv, 'python3']) {
    if (!candidate) continue;
    const probe = spawnSync(candidate, ['-c', 'import sys; print(sys.version_info >= (3, 12))'], { encoding: 'utf8' });
    if (probe.status === 0 && probe.stdout.trim() === 'True') return candidate;
  }
  throw new LocalStackSetupError('LocalStack needs Python 3.12 or newer, and none was found (tried LOCALSTACK_PYTHON, python3.13, python3.12, the versions pyenv holds, python3); set LOCALSTACK_PYTHON to one');
}

function need(command: string, why: string): void {
  if (spawnSync('sh', ['-c', `command -v ${command}`]).status !== 0) throw new LocalStackSetupError(`LocalStack's DynamoDB Local needs \`${command}\` (${why}) on the PATH`);
}

/** Runs a setup step to its end; its output goes to the setup log, and its tail into the error when it fails. */
function step(command: string, args: readonly string[], logFile: string, cwd = root): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(logFile, { flags: 'a' });
    out.write(`\n$ ${command} ${args.join(' ')}\n`);
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on('error', (error) => reject(new LocalStackSetupError(`${command}: ${error.message}`)));
    child.on('exit', (code) => {
      out.end(() => {
        if (code === 0) return resolve();
        const tail = readFileSync(logFile, 'utf8').split('\n').slice(-25).join('\n');
        reject(new LocalStackSetupError(`${command} ${args.join(' ')} failed (exit ${code}); the end of ${logFile}:\n${tail}`));
      });
    });
  });
}

/**
 * Installs LocalStack and lays out DynamoDB Local on first use (about a
 * minute; then nothing). Concurrent callers wait on a lock.
 */
export async function ensureLocalStack(log: (line: string) => void): Promise<void> {
  if (existsSync(installedMarker)) return;
  mkdirSync(root, { recursive: true });
  await withInstallLock(join(root, 'install.lock'), log, async () => {
    if (existsSync(installedMarker)) return;
    const logFile = join(root, 'setup.log');
    const interpreter = python();
    need('java', 'a JDK 17 or newer runs DynamoDB Local');
    need('javac', 'compiles a no-op java agent');
    need('jar', 'writes the launcher jar');
    need('mvn', 'fetches DynamoDB Local and its dependencies from Maven Central');
    log(`setting up LocalStack ${LOCALSTACK_VERSION} and DynamoDB Local ${DYNAMODB_LOCAL_VERSION} in ${root} (first run only; log: ${logFile})`);
    rmSync(venvDir, { recursive: true, force: true });
    await step(interpreter, ['-m', 'venv', venvDir], logFile);
    await step(join(venvDir, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', '-c', join(setupDir, 'constraints.txt'), `localstack-core[runtime]==${LOCALSTACK_VERSION}`], logFile);
    await layOutDynamoDbLocal(logFile);
    writeFileSync(installedMarker, new Date().toISOString());
  });
}

/**
 * DynamoDB Local where LocalStack looks before it would download it
 * (`<FILESYSTEM_ROOT>/var/lib/localstack/lib/dynamodb-local/2/`): the Maven
 * jars, sqlite4java's native library under the name it loads, a
 * manifest-only `DynamoDBLocal.jar` naming the main class and the jars, and a
 * no-op stand-in for the java agent LocalStack adds (the real one is fetched
 * from a host these machines cannot reach; it only lifts the GSI limit).
 * LocalStack's "java 21" slot points at the JDK on the machine.
 */
async function layOutDynamoDbLocal(logFile: string): Promise<void> {
  const jars = join(root, 'maven', 'lib');
  rmSync(jars, { recursive: true, force: true });
  await step(
    'mvn',
    ['-B', '-q', '-f', join(setupDir, 'pom.xml'), `-Dmaven.repo.local=${join(root, 'm2')}`, 'dependency:copy-dependencies', `-DoutputDirectory=${jars}`, '-DincludeScope=runtime'],
    logFile,
  );
  const lib = join(filesystemRoot, 'var', 'lib', 'localstack', 'lib');
  const home = join(lib, 'dynamodb-local', '2');
  rmSync(home, { recursive: true, force: true });
  mkdirSync(join(home, 'DynamoDBLocal_lib'), { recursive: true });
  for (const file of readdirSync(jars)) {
    if (file.endsWith('.jar')) copyFileSync(join(jars, file), join(home, 'DynamoDBLocal_lib', file));
    if (/^libsqlite4java-linux-amd64.*\.so$/.test(file)) copyFileSync(join(jars, file), join(home, 'DynamoDBLocal_lib', 'libsqlite4java-linux-amd64.so'));
  }
  const work = join(root, 'build');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'NoopAgent.java'), 'public class NoopAgent { public static void premain(String args, java.lang.instrument.Instrumentation instrumentation) {} }\n');
  await step('javac', ['--release', '17', 'NoopAgent.java'], logFile, work);
  writeFileSync(join(work, 'agent.mf'), 'Premain-Class: NoopAgent\n');
  await step('jar', ['cfm', join(home, 'ddb-local-loader-0.1.jar'), 'agent.mf', 'NoopAgent.class'], logFile, work);
  const classPath = readdirSync(join(home, 'DynamoDBLocal_lib')).filter((f) => f.endsWith('.jar')).map((f) => `  DynamoDBLocal_lib/${f}`);
  // A manifest line is at most 72 bytes; continuation lines start with a space.
  writeFileSync(join(work, 'launcher.mf'), ['Manifest-Version: 1.0', 'Main-Class: software.amazon.dynamodb.services.local.main.ServerRunner', `Class-Path: .`, ...classPath, ''].join('\n'));
  await step('jar', ['cfm', join(home, 'DynamoDBLocal.jar'), join(work, 'launcher.mf')], logFile, work);
  const javaHome = dirname(dirname(realpathSync(spawnSync('sh', ['-c', 'command -v java'], { encoding: 'utf8' }).stdout.trim())));
  mkdirSync(join(lib, 'java'), { recursive: true });
  rmSync(join(lib, 'java', '21'), { force: true });
  symlinkSync(javaHome, join(lib, 'java', '21'));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface StartLocalStackOptions {
  /** The gateway's port; a free one when omitted. */
  readonly port?: number | undefined;
  readonly log?: (line: string) => void;
  readonly timeoutMs?: number;
}

/** Sets up (first use), starts and waits for a healthy LocalStack; `stop()` ends it and every process it started. */
export async function startLocalStackEmulator(options: StartLocalStackOptions = {}): Promise<Emulator> {
  const log = options.log ?? (() => {});
  await ensureLocalStack(log);
  const port = options.port ?? (await freePort());
  const dynamodbPort = await freePort();
  const logFile = join(root, `localstack-${port}.log`);
  const out = createWriteStream(logFile);
  const started = Date.now();
  const child = spawn(join(venvDir, 'bin', 'python'), ['-m', 'localstack.runtime.main'], {
    cwd: root,
    // Its own process group: stopping it stops what it spawned in that group.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      // This machine may itself be a container: without this LocalStack ignores the prepared layout.
      OVERRIDE_IN_DOCKER: '0',
      FILESYSTEM_ROOT: filesystemRoot,
      GATEWAY_LISTEN: `127.0.0.1:${port}`,
      LOCALSTACK_HOST: `localhost:${port}`,
      SERVICES: LOCALSTACK_SERVICES.join(','),
      EAGER_SERVICE_LOADING: '1',
      // DynamoDB Local's own streams: the default provider lost the first write after CreateTable.
      PROVIDER_OVERRIDE_DYNAMODBSTREAMS: 'v2',
      // Queue URLs on the gateway's own host and port, which resolve.
      SQS_ENDPOINT_STRATEGY: 'path',
      DYNAMODB_IN_MEMORY: '1',
      DYNAMODB_LOCAL_PORT: String(dynamodbPort),
      PERSISTENCE: '0',
      DNS_ADDRESS: '0',
      SKIP_SSL_CERT_DOWNLOAD: '1',
      DISABLE_EVENTS: '1',
      LOCALSTACK_TELEMETRY: '0',
      // The SDK's endpoint variables are ours, not LocalStack's.
      AWS_ENDPOINT_URL: '',
    },
  });
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  const stop = once(() => stopLocalStack(child, out, dynamodbPort));
  // However this process ends, nothing is left running.
  const onExit = () => void stop();
  process.once('exit', onExit);
  const endpoint = `http://localhost:${port}`;
  try {
    await waitHealthy(endpoint, child, logFile, options.timeoutMs ?? 180_000);
  } catch (error) {
    await stop();
    throw error;
  }
  log(`LocalStack ${LOCALSTACK_VERSION} listening on ${endpoint} (healthy in ${((Date.now() - started) / 1000).toFixed(1)} s; log: ${logFile})`);
  return {
    endpoint,
    owned: true,
    stop: async () => {
      process.off('exit', onExit);
      await stop();
    },
  };
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= fn());
}

/** Healthy: every service the stack uses reports available or running. */
async function waitHealthy(endpoint: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new LocalStackSetupError(`LocalStack exited (${child.exitCode ?? child.signalCode}) before it was healthy; the end of ${logFile}:\n${tail(logFile)}`);
    }
    try {
      const response = await fetch(`${endpoint}/_localstack/health`, { signal: AbortSignal.timeout(2_000) });
      const health = (await response.json()) as { services?: Record<string, string> };
      const states = LOCALSTACK_SERVICES.map((service) => health.services?.[service]);
      if (states.every((state) => state === 'available' || state === 'running')) return;
      last = JSON.stringify(health.services ?? health);
    } catch (error) {
      last = String(error);
    }
    await sleep(250);
  }
  throw new LocalStackSetupError(`LocalStack at ${endpoint} was not healthy within ${timeoutMs} ms (last: ${last}); the end of ${logFile}:\n${tail(logFile)}`);
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-30).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * The DynamoDB Local JVM this LocalStack started (it runs in a session of its
 * own): its command line names our directory and the port we gave it, so
 * another LocalStack of this checkout is left alone.
 */
function dynamoDbLocalProcesses(dynamodbPort: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const port = args.indexOf('-port');
      if (args.some((arg) => arg.includes(filesystemRoot)) && port >= 0 && args[port + 1] === String(dynamodbPort)) found.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

async function stopLocalStack(child: ChildProcess, out: NodeJS.WritableStream, dynamodbPort: number): Promise<void> {
  const signal = (which: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, which);
    } catch {
      // The group is gone.
    }
  };
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    signal('SIGTERM');
    const killer = setTimeout(() => signal('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
  }
  // DynamoDB Local's JVM, by its own id.
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const left = dynamoDbLocalProcesses(dynamodbPort);
    if (left.length === 0) break;
    for (const pid of left) {
      try {
        process.kill(pid, attempt < 10 ? 'SIGTERM' : 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await sleep(250);
  }
  out.end();
}

