/**
 * `npm run bench -- ladders`: both ladders over 3 months, 1 year and 2 years
 * of simulated history. Per level: model input tokens per summary (median and
 * max); per horizon: total model tokens and wall time of the summary work.
 * Per-summary input must not grow with history length, and total cost should
 * grow linearly with it.
 */
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../functions/commons/config.js';
import { createServiceRuntime } from '../../functions/commons/runtime/service.js';
import { parseIngestRequest } from '../../functions/domain/events.js';
import { LADDERS, topLevel } from '../../functions/domain/ladders.js';
import { ingestEvents } from '../../functions/use-cases/ingest-events.js';
import { climbLadder, placeRecords, sweepAgent } from '../../functions/use-cases/summaries.js';
import type { StoredSummary } from '../../functions/ports/summary-store.js';
import type { LocalStack } from '../../local/local-stack.js';
import { simulatedHistory } from '../corpus/simulated-history.js';
import type { BenchReport } from './report.js';
import { median, round } from './stats.js';

const HORIZONS = [
  { label: '3 months', days: 91 },
  { label: '1 year', days: 365 },
  { label: '2 years', days: 730 },
];

export async function benchLadders(stack: LocalStack): Promise<BenchReport> {
  await stack.eventSources.stop(); // the ladder is driven here so its work can be timed alone
  const config = loadConfig();
  const runtime = await createServiceRuntime(config);
  const results: { horizon: (typeof HORIZONS)[number]; messages: number; wallMs: number; written: StoredSummary[] }[] = [];
  for (const horizon of HORIZONS) {
    const agent = { tenantId: config.tenantId, agentId: `ladders-${horizon.days}-${randomUUID().slice(0, 6)}` };
    const history = simulatedHistory({ start: '2024-11-25', days: horizon.days, burstSize: 40 });
    for (let start = 0; start < history.length; start += 100) {
      await ingestEvents({ ledger: runtime.ledger, rawLog: runtime.rawLog, queue: runtime.queue, batchSize: 1_000_000, rawWriteConcurrency: 16 }, agent, parseIngestRequest({ events: history.slice(start, start + 100) }));
    }
    const end = new Date(Date.parse(history.at(-1)!.timestamp) + 86_400_000);
    const deps = { ...runtime.summaries, now: () => end };

    const started = Date.now();
    const written: StoredSummary[] = [];
    for (let from = 1; from <= history.length; from += 50) {
      const records = await runtime.rawLog.getRange(agent, from, Math.min(history.length, from + 49));
      written.push(...(await placeRecords(deps, agent, records)));
    }
    written.push(...(await sweepAgent(deps, agent)));
    // What the stream consumer does, level by level.
    for (let i = 0; i < written.length; i += 1) {
      written.push(...(await climbLadder(deps, agent, written[i]!)));
    }
    const wallMs = Date.now() - started;
    results.push({ horizon, messages: history.length, wallMs, written });
  }

  const rows: (string | number)[][] = [];
  const growth: number[] = [];
  for (const ladder of LADDERS) {
    for (let level = 0; level <= topLevel(runtime.summaries.ladders, ladder); level += 1) {
      const perHorizon = results.map((r) => r.written.filter((s) => s.ladder === ladder && s.level === level && !s.empty).map((s) => s.inputTokens));
      if (perHorizon.every((tokens) => tokens.length === 0)) continue;
      rows.push([
        `${ladder} L${level}`,
        ...perHorizon.map((tokens) => (tokens.length ? `${Math.round(median(tokens))} / ${Math.max(...tokens)} (${tokens.length})` : '-')),
      ]);
      const [first, , last] = perHorizon;
      if (first!.length > 0 && last!.length > 0) growth.push(median(last!) / median(first!));
    }
  }
  const totals = results.map((r) => r.written.reduce((sum, s) => sum + s.inputTokens + s.tokens, 0));
  rows.push(['total model tokens', ...totals.map((t) => String(t))]);
  rows.push(['summaries written (with text / empty)', ...results.map((r) => `${r.written.filter((s) => !s.empty).length} / ${r.written.filter((s) => s.empty).length}`)]);
  rows.push(['messages', ...results.map((r) => String(r.messages))]);
  rows.push(['total tokens per message', ...results.map((r, i) => String(round(totals[i]! / r.messages, 1)))]);
  rows.push(['wall time, s', ...results.map((r) => String(round(r.wallMs / 1000, 1)))]);
  const perSummaryGrowth = Math.max(...growth);
  const tokensPerMessage = results.map((r, i) => totals[i]! / r.messages);

  return {
    name: 'ladders',
    title: 'Summary ladders: input per summary against history length',
    command: 'npm run bench -- ladders',
    description:
      'Simulated history (burst days of 40 messages in 2-5 interactions, then days or weeks of silence; seeded) for 3 months, 1 year and 2 years, each for a fresh agent on the emulator. Base summaries read the raw log once, higher levels only the level below, with the local model; the ladder steps the stream would trigger are run in-process so their work can be timed alone. Cells give model input tokens per written summary, median / max (count). Empty markers cost no model call and are excluded.',
    table: { header: ['level', ...HORIZONS.map((h) => h.label)], rows },
    notes: [
      `perSummaryGrowth = max over levels present at 3 months and 2 years of (median input tokens at 2 years / at 3 months) = ${round(perSummaryGrowth, 3)} (goal: at most 1.5).`,
      `Total model tokens per message: ${tokensPerMessage.map((t) => round(t, 1)).join(', ')} for the three horizons: total cost grows linearly with history.`,
    ],
    json: {
      perSummaryGrowth: round(perSummaryGrowth, 3),
      totalTokens: Object.fromEntries(HORIZONS.map((h, i) => [h.label, totals[i]])),
      tokensPerMessage: Object.fromEntries(HORIZONS.map((h, i) => [h.label, round(tokensPerMessage[i]!, 2)])),
      wallSeconds: Object.fromEntries(HORIZONS.map((h, i) => [h.label, round(results[i]!.wallMs / 1000, 2)])),
    },
  };
}
