/**
 * The local AWS emulator: moto server, installed from PyPI into a
 * project-local virtualenv at a pinned version, started on a free loopback
 * port; or, with `MEMORY_EMULATOR=localstack`, LocalStack as a host process
 * (local/localstack.ts). When `AWS_ENDPOINT_URL` is set (an emulator you run
 * yourself), nothing is installed or started and that endpoint is used.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

export const MOTO_VERSION = '5.2.5';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const emulatorDir = join(projectRoot, '.emulator');
const venvDir = join(emulatorDir, 'venv');
const installedMarker = join(venvDir, `.moto-${MOTO_VERSION}-installed`);
const installLock = join(emulatorDir, 'install.lock');
const serverScript = join(projectRoot, 'local', 'moto_locked_server.py');

export interface Emulator {
  /** Base URL every AWS client should use, e.g. `http://localhost:4566`. */
  readonly endpoint: string;
  /** True when this process started the emulator (and so must stop it). */
  readonly owned: boolean;
  stop(): Promise<void>;
}

export type EmulatorKind = 'moto' | 'localstack';

export interface StartEmulatorOptions {
  /** An already running endpoint; defaults to `AWS_ENDPOINT_URL`. */
  readonly endpoint?: string | undefined;
  /** Which emulator to start when no endpoint is given; defaults to `MEMORY_EMULATOR`, else moto. */
  readonly kind?: EmulatorKind | undefined;
  readonly log?: (line: string) => void;
}

/** The emulator `MEMORY_EMULATOR` names (moto when unset); anything else is a clear error. */
export function emulatorKind(value = process.env.MEMORY_EMULATOR): EmulatorKind {
  if (value === undefined || value === '' || value === 'moto') return 'moto';
  if (value === 'localstack') return 'localstack';
  throw new Error(`MEMORY_EMULATOR must be moto or localstack, not ${JSON.stringify(value)}`);
}

/** Starts moto or LocalStack (or adopts `AWS_ENDPOINT_URL`) and waits until it answers. */
export async function startEmulator(options: StartEmulatorOptions = {}): Promise<Emulator> {
  const log = options.log ?? (() => {});
  if (options.endpoint) {
    await waitForEndpoint(options.endpoint, 30_000);
    return { endpoint: options.endpoint, owned: false, stop: async () => {} };
  }
  if ((options.kind ?? emulatorKind()) === 'localstack') {
    const { startLocalStackEmulator } = await import('./localstack.js');
    return startLocalStackEmulator({ log });
  }
  await ensureVirtualenv(log);
  const python = join(venvDir, 'bin', 'python');
  const child = spawn(python, [serverScript, '127.0.0.1', '0'], {
    // stdin stays open as a lifeline: the launcher exits when it closes.
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, PYTHONUNBUFFERED: '1' },
  });
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr.push(chunk.toString());
    if (stderr.length > 50) stderr.shift();
  });
  const port = await readPort(child, stderr);
  // moto routes S3 by Host; `localhost` keeps path-style S3 and the other services apart.
  const endpoint = `http://localhost:${port}`;
  await waitForEndpoint(endpoint, 30_000);
  log(`moto ${MOTO_VERSION} listening on ${endpoint}`);
  return {
    endpoint,
    owned: true,
    stop: () => stopChild(child),
  };
}

async function readPort(child: ChildProcess, stderr: string[]): Promise<number> {
  const lines = createInterface({ input: child.stdout! });
  return new Promise<number>((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`moto server exited (${code}) before listening:\n${stderr.join('')}`));
    child.once('exit', onExit);
    lines.once('line', (line) => {
      child.off('exit', onExit);
      try {
        resolve((JSON.parse(line) as { port: number }).port);
      } catch {
        reject(new Error(`unexpected output from moto launcher: ${line}`));
      }
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Waits until the endpoint answers any HTTP request. */
export async function waitForEndpoint(endpoint: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(endpoint, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      return;
    } catch (error) {
      lastError = error;
      await sleep(100);
    }
  }
  throw new Error(`emulator at ${endpoint} did not answer within ${timeoutMs} ms: ${String(lastError)}`);
}

/**
 * Creates `.emulator/venv` with the pinned moto on first use. Concurrent
 * callers (a test run and `npm start`, say) wait on a directory lock instead of
 * installing twice.
 */
export async function ensureVirtualenv(log: (line: string) => void): Promise<void> {
  if (existsSync(installedMarker)) return;
  mkdirSync(emulatorDir, { recursive: true });
  await withInstallLock(installLock, log, async () => {
    if (existsSync(installedMarker)) return;
    log(`installing moto[server]==${MOTO_VERSION} into ${venvDir} (first run only)`);
    await run('python3', ['-m', 'venv', venvDir]);
    // No byte-compiling at install (about 12 of 32 s here): Python compiles the few modules the server imports on first use.
    await run(join(venvDir, 'bin', 'pip'), [
      'install',
      '--quiet',
      '--no-compile',
      '--disable-pip-version-check',
      `moto[server]==${MOTO_VERSION}`,
    ]);
    writeFileSync(installedMarker, new Date().toISOString());
  });
}

/** Runs `install` holding a directory lock, so two processes (a test run and `npm start`) never install at once. */
export async function withInstallLock(lockDir: string, log: (line: string) => void, install: () => Promise<void>): Promise<void> {
  const staleAfterMs = 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(lockDir);
      break;
    } catch {
      const lock = statSync(lockDir, { throwIfNoEntry: false });
      if (!lock) continue;
      if (Date.now() - lock.mtimeMs > staleAfterMs) {
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      log('waiting for another process to finish installing the emulator');
      await sleep(1_000);
    }
  }
  try {
    await install();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

/** Runs a command to its end without blocking this process (a test run prepares other things meanwhile). */
function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed with exit code ${code}`))));
  });
}
