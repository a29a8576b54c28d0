import { describe, expect, it } from 'vitest';
import { ConfigurationError, loadConfig } from '../../functions/commons/config.js';

const base = {
  AGENTS_TABLE_NAME: 'agents',
  RAW_BUCKET_NAME: 'raw',
  BATCH_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/jobs.fifo',
  BATCH_DEAD_LETTER_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/jobs-dlq.fifo',
  MEMORY_TABLE_NAME: 'memory',
  IDLE_CHECK_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/idle',
  SUMMARIES_TABLE_NAME: 'summaries',
};

describe('loadConfig', () => {
  it('applies documented defaults', () => {
    expect(loadConfig(base)).toMatchObject({ tenantId: 'default', batchSize: 50, region: 'us-east-1', s3ForcePathStyle: false });
  });

  it('turns on path-style S3 when an endpoint override points at an emulator', () => {
    expect(loadConfig({ ...base, AWS_ENDPOINT_URL: 'http://localhost:4566' }).s3ForcePathStyle).toBe(true);
  });

  it('selects the local model with the default budget unless told otherwise', () => {
    expect(loadConfig(base)).toMatchObject({ model: { provider: 'local' }, budget: { maxCalls: 12 } });
  });

  it('defaults the Bedrock model id, and requires a base URL and model id for an OpenAI-compatible server', () => {
    expect(loadConfig({ ...base, MODEL_PROVIDER: 'bedrock' }).model).toMatchObject({ provider: 'bedrock', modelId: expect.stringContaining('anthropic') });
    expect(() => loadConfig({ ...base, MODEL_PROVIDER: 'openai' })).toThrow(/OPENAI_BASE_URL and MODEL_ID/);
    expect(loadConfig({ ...base, MODEL_PROVIDER: 'openai', MODEL_ID: 'llama3', OPENAI_BASE_URL: 'http://localhost:11434/v1' }).model).toEqual({
      provider: 'openai',
      modelId: 'llama3',
      baseUrl: 'http://localhost:11434/v1',
    });
  });

  it('takes the OpenAI-compatible key from a Secrets Manager secret for the model and the embeddings, and refuses a key and a secret together', () => {
    const openai = { ...base, MODEL_PROVIDER: 'openai', MODEL_ID: 'llama3', OPENAI_BASE_URL: 'http://localhost:11434/v1', OPENAI_API_KEY_SECRET_ID: 'agent-memory/openai' };
    const config = loadConfig({ ...openai, EMBEDDING_PROVIDER: 'openai', EMBEDDING_MODEL_ID: 'nomic-embed-text', EMBEDDING_DIMENSIONS: '768' });
    expect(config.model).toMatchObject({ provider: 'openai', apiKeySecretId: 'agent-memory/openai' });
    expect(config.model).not.toHaveProperty('apiKey');
    expect(config.embeddings).toMatchObject({ provider: 'openai', apiKeySecretId: 'agent-memory/openai' });
    expect(() => loadConfig({ ...openai, OPENAI_API_KEY: 'sk-1' })).toThrow(/OPENAI_API_KEY or OPENAI_API_KEY_SECRET_ID, not both/);
  });

  it('reads ladder fan-ins, the time zone and the interaction gap', () => {
    expect(loadConfig({ ...base, TIME_LADDER_FAN_INS: '7,4', SUMMARY_TIME_ZONE: 'Europe/Berlin', INTERACTION_IDLE_MINUTES: '45' })).toMatchObject({
      fanIns: { time: [7, 4], count: [10, 4, 3, 4] },
      timeZone: 'Europe/Berlin',
      interactionIdleMs: 45 * 60_000,
    });
    expect(() => loadConfig({ ...base, SUMMARY_TIME_ZONE: 'Mars/Olympus' })).toThrow(/SUMMARY_TIME_ZONE: must be an IANA time zone/);
    expect(() => loadConfig({ ...base, COUNT_LADDER_FAN_INS: '10,1' })).toThrow(/COUNT_LADDER_FAN_INS/);
  });

  it('fails fast naming each missing or malformed setting', () => {
    expect(() => loadConfig({ BATCH_SIZE: 'zero' })).toThrow(ConfigurationError);
    expect(() => loadConfig({ BATCH_SIZE: 'zero' })).toThrow(/AGENTS_TABLE_NAME.*RAW_BUCKET_NAME.*BATCH_QUEUE_URL.*BATCH_SIZE/);
  });
});
