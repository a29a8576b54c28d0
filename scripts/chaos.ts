/**
 * `npm run chaos [-- --agents 50 --messages 300 --fault-rate 0.02 --seed 1]`:
 * the fault-and-load run (scripts/chaos/run.ts) on a fresh local stack. Prints
 * the figures, every problem found, and one JSON line; exits 1 when anything
 * acknowledged was lost, applied twice, or left stuck.
 */
import { parseArgs } from 'node:util';
import { SCOPES } from '../functions/domain/auth.js';
import { runChaos } from './chaos/run.js';
import { ratesFor, startChaosStack } from './chaos/stack.js';

const { values } = parseArgs({
  options: {
    agents: { type: 'string', default: '50' },
    messages: { type: 'string', default: '300' },
    'fault-rate': { type: 'string', default: '0.02' },
    seed: { type: 'string', default: '1' },
    'drain-timeout': { type: 'string', default: '900' },
  },
});
const log = (line: string) => process.stderr.write(`[chaos] ${line}\n`);
const key = 'chaos-key-all-scopes';
const faultRate = Number(values['fault-rate']);
const seed = Number(values.seed);
const { stack, faults } = await startChaosStack({
  endpoint: process.env.AWS_ENDPOINT_URL,
  port: 0,
  namePrefix: 'chaos',
  log,
  apiKeys: [{ tenantId: 'default', key, scopes: [...SCOPES], agents: '*' }],
  rates: ratesFor(faultRate, seed),
  consolidatorTimeoutSeconds: 30,
});
try {
  const result = await runChaos(stack, faults, { agents: Number(values.agents), messages: Number(values.messages), drainTimeoutMs: Number(values['drain-timeout']) * 1000, key, log });
  const { problems, faultsByKind, ...figures } = result;
  process.stdout.write(`\n## Chaos: ${values.agents} agents x ${values.messages} messages, fault rate ${faultRate}, seed ${seed}\n\n`);
  for (const [name, value] of Object.entries(figures)) process.stdout.write(`- ${name}: ${typeof value === 'number' ? Math.round(value * 10) / 10 : value}\n`);
  process.stdout.write('- faults by kind:\n');
  for (const [kind, count] of Object.entries(faultsByKind)) process.stdout.write(`  - ${kind}: ${count}\n`);
  for (const problem of problems) process.stdout.write(`PROBLEM ${problem}\n`);
  process.stdout.write(`${JSON.stringify({ bench: 'chaos', ...figures, faultsByKind })}\n`);
  process.exitCode = result.lost + result.doubled + result.stuck + result.ladderGaps > 0 ? 1 : 0;
} finally {
  await stack.stop();
}
