/**
 * Redaction before anything is derived: the secretlint recommended preset
 * (API keys and tokens of the common providers, connection strings, private
 * keys) plus the service's own rules (functions/domain/redaction.ts:
 * passwords stated in text, card numbers by Luhn check, bearer tokens, PII
 * by policy). Text is normalised (NFKC, invisible and control characters
 * removed) first, so a secret split by a zero-width space is still found.
 *
 * `RedactingRawLog` applies it where raw records are read: the consolidator,
 * the summary writer and the sweep see redacted content only, so models,
 * items, audit entries, summaries, snapshots and context blocks never hold
 * a secret. With `redactOnWrite`, the raw log itself stores redacted content.
 */
import { lintSource } from '@secretlint/core';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import { normalizeText, redactText, type Finding, type RedactionPolicy } from '../domain/redaction.js';
import type { AgentKey } from '../domain/agent-key.js';
import type { HoleMarker, RawLog, RawRecord, RawRun } from '../ports/pipeline.js';

const SECRETLINT_CONFIG = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommendedPreset }] };

/** secretlint rule ids (`@secretlint/secretlint-rule-github`) to placeholder types. */
function secretTypeOf(ruleId: string): string {
  const name = ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
  if (name === 'basicauth' || name === 'database-connection-string') return 'secret:connection-string';
  if (name === 'privatekey') return 'secret:private-key';
  return `secret:${name}-token`;
}

export interface RedactorOptions {
  readonly policy: RedactionPolicy;
  /** Called with the counts of every redaction made (metrics). */
  readonly onRedacted?: (counts: Readonly<Record<string, number>>) => void;
}

export class Redactor {
  constructor(private readonly options: RedactorOptions) {}

  /** Normalised and redacted texts, in order; one secretlint pass over all of them. */
  async redactAll(texts: readonly string[]): Promise<string[]> {
    if (texts.length === 0) return [];
    const normalised = texts.map(normalizeText);
    // One lint over the texts joined, each finding mapped back to its text by offset.
    const separator = '\n\n';
    const starts: number[] = [];
    let offset = 0;
    for (const text of normalised) {
      starts.push(offset);
      offset += text.length + separator.length;
    }
    const joined = normalised.join(separator);
    const result = await lintSource({
      source: { filePath: '/record.txt', content: joined, contentType: 'text' },
      options: { config: SECRETLINT_CONFIG, noPhysicFilePath: true },
    });
    const findings: Finding[][] = normalised.map(() => []);
    for (const message of result.messages) {
      if (message.type !== 'message') continue;
      const [start, end] = message.range;
      let index = starts.length - 1;
      while (index > 0 && starts[index]! > start) index -= 1;
      const base = starts[index]!;
      findings[index]!.push({ start: start - base, end: Math.min(end - base, normalised[index]!.length), type: secretTypeOf(message.ruleId) });
    }
    const total: Record<string, number> = {};
    const redacted = normalised.map((text, i) => {
      const outcome = redactText(text, this.options.policy, findings[i]);
      for (const [type, count] of Object.entries(outcome.counts)) total[type] = (total[type] ?? 0) + count;
      return outcome.text;
    });
    if (Object.keys(total).length > 0) this.options.onRedacted?.(total);
    return redacted;
  }

  async redact(text: string): Promise<string> {
    return (await this.redactAll([text]))[0]!;
  }

  async redactRecords(records: readonly RawRecord[]): Promise<RawRecord[]> {
    const contents = await this.redactAll(records.map((record) => record.content));
    // An action's error text reaches the model too (pitfalls): it is redacted like content.
    const errors = await this.redactAll(records.map((record) => (typeof record.metadata?.error === 'string' ? record.metadata.error : '')));
    return records.map((record, i) => {
      const content = contents[i] === record.content ? record : { ...record, content: contents[i]! };
      return typeof record.metadata?.error === 'string' && errors[i] !== record.metadata.error ? { ...content, metadata: { ...record.metadata, error: errors[i]! } } : content;
    });
  }
}

/**
 * The raw log as the deriving functions must see it: every record read comes
 * back redacted. Writes pass through unchanged unless `redactOnWrite` (then
 * the stored evidence itself is redacted: `REDACT_RAW_LOG=true`).
 */
export class RedactingRawLog implements RawLog {
  constructor(
    private readonly inner: RawLog,
    private readonly redactor: Redactor,
    private readonly options: { readonly redactOnWrite?: boolean } = {},
  ) {}

  async putRun(agent: AgentKey, run: RawRun): Promise<readonly number[]> {
    return this.inner.putRun(agent, this.options.redactOnWrite ? { ...run, records: await this.redactor.redactRecords(run.records) } : run);
  }

  async get(agent: AgentKey, sequence: number): Promise<RawRecord | undefined> {
    const record = await this.inner.get(agent, sequence);
    return record ? (await this.redactor.redactRecords([record]))[0] : undefined;
  }

  async getRange(agent: AgentKey, fromSequence: number, toSequence: number): Promise<RawRecord[]> {
    return this.redactor.redactRecords(await this.inner.getRange(agent, fromSequence, toSequence));
  }

  async readRange(agent: AgentKey, fromSequence: number, toSequence: number) {
    const range = await this.inner.readRange(agent, fromSequence, toSequence);
    return { ...range, records: await this.redactor.redactRecords(range.records) };
  }

  /** A hole marker holds no text of the record: nothing to redact. */
  async putHole(agent: AgentKey, hole: HoleMarker): Promise<boolean> {
    return this.inner.putHole(agent, hole);
  }
}
