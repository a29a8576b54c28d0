import { describe, expect, it } from 'vitest';
import { ConfigurationError, loadConfig } from '../../functions/commons/config.js';

const base = {
  AGENTS_TABLE_NAME: 'agents',
  RAW_BUCKET_NAME: 'raw',
  BATCH_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/jobs.fifo',
};

describe('loadConfig', () => {
  it('applies documented defaults', () => {
    expect(loadConfig(base)).toMatchObject({ tenantId: 'default', batchSize: 50, region: 'us-east-1', s3ForcePathStyle: false });
  });

  it('turns on path-style S3 when an endpoint override points at an emulator', () => {
    expect(loadConfig({ ...base, AWS_ENDPOINT_URL: 'http://localhost:4566' }).s3ForcePathStyle).toBe(true);
  });

  it('fails fast naming each missing or malformed setting', () => {
    expect(() => loadConfig({ BATCH_SIZE: 'zero' })).toThrow(ConfigurationError);
    expect(() => loadConfig({ BATCH_SIZE: 'zero' })).toThrow(/AGENTS_TABLE_NAME.*RAW_BUCKET_NAME.*BATCH_QUEUE_URL.*BATCH_SIZE/);
  });
});
