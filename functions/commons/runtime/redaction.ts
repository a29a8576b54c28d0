/**
 * Redaction before anything is derived (the secretlint preset and the
 * service's own rules): the redacted raw log every deriving function reads,
 * and the raw log ingest writes (redacted too when REDACT_RAW_LOG=true).
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { RawLog } from '../../ports/pipeline.js';
import { RedactingRawLog, Redactor } from '../../use-cases/redaction.js';
import { metrics } from '../powertools.js';
import type { AwsRuntime } from './aws.js';
import { storedRawLog } from './stores.js';

export interface RedactionRuntime {
  readonly redactor: Redactor;
  /** Every record redacted on read: what models, items, summaries, the index and the export see. */
  readonly redactedRawLog: RawLog;
  /** The raw log as ingest writes it (redacting on write when REDACT_RAW_LOG=true). */
  readonly ingestRawLog: RawLog;
}

export function redaction(runtime: AwsRuntime): RedactionRuntime {
  const { config } = runtime;
  const stored = storedRawLog(runtime);
  const redactor = new Redactor({ policy: { email: config.redaction.email, phone: config.redaction.phone, address: config.redaction.address }, onRedacted: countRedactions });
  return {
    redactor,
    redactedRawLog: new RedactingRawLog(stored, redactor),
    ingestRawLog: config.redaction.rawLog ? new RedactingRawLog(stored, redactor, { redactOnWrite: true }) : stored,
  };
}

/** Every redaction is counted, by placeholder type; the text itself is never logged. */
function countRedactions(counts: Readonly<Record<string, number>>): void {
  let total = 0;
  for (const [type, count] of Object.entries(counts)) {
    metrics.addMetric(`Redacted_${type.replace(/[^A-Za-z0-9]+/g, '_')}`, MetricUnit.Count, count);
    total += count;
  }
  metrics.addMetric('Redactions', MetricUnit.Count, total);
}
