/**
 * `npm run bench [-- name ...]`: runs the named benchmarks (all when none is
 * named: ingest, consolidate, ladders, read, eval, extract, bundles, cost) on a fresh local
 * stack each (extract needs none: it calls the model port directly), prints each table and JSON line, and records each section in
 * docs/BENCHMARKS.md.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startLocalStack } from '../local/local-stack.js';
import { emulatorKind } from '../local/emulator.js';
import { LOCALSTACK_VERSION } from '../local/localstack.js';
import { benchIngest } from './bench/ingest.js';
import { benchConsolidate } from './bench/consolidate.js';
import { benchLadders } from './bench/ladders.js';
import { benchRead } from './bench/read.js';
import { benchEval } from './bench/eval.js';
import { benchExtract } from './bench/extract.js';
import { benchBundles } from './bench/bundles.js';
import { benchCost } from './bench/cost.js';
import { UsageMeter } from '../local/metering.js';
import { printReport, recordReport, type BenchReport } from './bench/report.js';
import type { LocalStack } from '../local/local-stack.js';


const benchmarks: Record<string, (stack: LocalStack) => Promise<BenchReport>> = {
  ingest: benchIngest,
  consolidate: benchConsolidate,
  ladders: benchLadders,
  read: benchRead,
  eval: benchEval,
  extract: () => benchExtract(),
  bundles: benchBundles,
  cost: (stack) => benchCost(stack, meter),
};
/** The cost benchmark meters the functions' clients, model and invocations (local/metering.ts). */
const meter = new UsageMeter();
const metered = new Set(['cost']);
/** Benchmarks that run the functions from their synthesised bundles instead of the sources. */
const bundled = new Set(['bundles']);
/** Benchmarks that call the model port directly and need no emulator. */
const stackless = new Set(['extract']);

const requested = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const unknown = requested.filter((name) => !(name in benchmarks));
if (unknown.length > 0) {
  process.stderr.write(`unknown benchmark(s): ${unknown.join(', ')}; available: ${Object.keys(benchmarks).join(', ')}\n`);
  process.exit(2);
}
// Read before any stack starts: starting one points AWS_ENDPOINT_URL at its own emulator.
const externalEndpoint = process.env.AWS_ENDPOINT_URL;
// MEMORY_EMULATOR=localstack: each benchmark's stack runs on a LocalStack of its own (local/localstack.ts).
const onLocalStack = !externalEndpoint && emulatorKind() === 'localstack';
const names = requested.length > 0 ? requested : Object.keys(benchmarks);
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

if (names.length > 1) {
  // One process per benchmark: the local runtime imports each function once per process, with the
  // environment (table names, endpoint) of the stack it was loaded for, as Lambda would.
  for (const name of names) {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), name], { stdio: 'inherit', env: process.env });
    if (child.status !== 0) {
      process.stderr.write(`[bench] ${name} failed (exit ${child.status ?? child.signal})\n`);
      process.exit(1);
    }
  }
  process.exit(0);
}

for (const name of names) {
  if (stackless.has(name)) {
    log(`running ${name}`);
    const report = await benchmarks[name]!(undefined as unknown as LocalStack).catch((error: unknown) => {
      log(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    });
    printReport(report);
    recordReport(report, 'none (model port called directly)');
    continue;
  }
  // A fresh stack (and emulator) per benchmark, so one cannot warm or load the emulator for another.
  const stack = await startLocalStack({
    endpoint: externalEndpoint,
    port: 0,
    namePrefix: `bench-${name}`,
    log,
    functions: bundled.has(name) ? 'bundles' : 'sources',
    ...(metered.has(name) ? { instruments: meter } : {}),
  });
  try {
    log(`running ${name}`);
    const report = await benchmarks[name]!(stack);
    printReport(report);
    if (onLocalStack) {
      // Its own section beside moto's, so the two emulators' figures can be read side by side.
      recordReport(
        { ...report, name: `${report.name}-localstack`, title: `${report.title}, on LocalStack`, command: `MEMORY_EMULATOR=localstack ${report.command}` },
        `LocalStack ${LOCALSTACK_VERSION} (host process)`,
      );
    } else recordReport(report, externalEndpoint ? `external endpoint ${externalEndpoint}` : undefined);
  } finally {
    await stack.stop();
  }
}
