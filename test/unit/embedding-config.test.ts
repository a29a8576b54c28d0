import { describe, expect, it } from 'vitest';
import { ConfigurationError, loadConfig } from '../../functions/commons/config.js';
import { createEmbeddings } from '../../functions/adapters/embeddings/index.js';
import { BedrockEmbeddings } from '../../functions/adapters/embeddings/bedrock.js';
import { OpenAiCompatibleEmbeddings } from '../../functions/adapters/embeddings/openai-compatible.js';
import type { EmbeddingPort } from '../../functions/ports/embeddings.js';

const base = {
  AGENTS_TABLE_NAME: 'agents',
  RAW_BUCKET_NAME: 'raw',
  BATCH_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/jobs.fifo',
  BATCH_DEAD_LETTER_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/jobs-dlq.fifo',
  MEMORY_TABLE_NAME: 'memory',
  IDLE_CHECK_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/idle',
  SUMMARIES_TABLE_NAME: 'summaries',
};

describe('embedding configuration', () => {
  it('selects the local embeddings unless told otherwise', () => {
    expect(loadConfig(base).embeddings).toEqual({ provider: 'local' });
  });

  it('defaults Bedrock to Titan Text Embeddings V2 at 512 dimensions', () => {
    expect(loadConfig({ ...base, EMBEDDING_PROVIDER: 'bedrock' }).embeddings).toEqual({
      provider: 'bedrock',
      modelId: 'amazon.titan-embed-text-v2:0',
      dimensions: 512,
    });
  });

  it('takes a Bedrock model id and one of the Titan V2 sizes', () => {
    expect(loadConfig({ ...base, EMBEDDING_PROVIDER: 'bedrock', EMBEDDING_MODEL_ID: 'custom.titan', EMBEDDING_DIMENSIONS: '256' }).embeddings).toEqual({
      provider: 'bedrock',
      modelId: 'custom.titan',
      dimensions: 256,
    });
  });

  it('refuses a Bedrock size Titan V2 does not offer, naming the setting and the sizes', () => {
    expect(() => loadConfig({ ...base, EMBEDDING_PROVIDER: 'bedrock', EMBEDDING_DIMENSIONS: '768' })).toThrow(ConfigurationError);
    expect(() => loadConfig({ ...base, EMBEDDING_PROVIDER: 'bedrock', EMBEDDING_DIMENSIONS: '768' })).toThrow(/EMBEDDING_DIMENSIONS must be 256, 512 or 1024/);
  });

  it('requires a base URL, a model id and the dimensions for an OpenAI-compatible server, naming each missing one', () => {
    expect(() => loadConfig({ ...base, EMBEDDING_PROVIDER: 'openai' })).toThrow(
      /EMBEDDING_PROVIDER=openai needs OPENAI_EMBEDDINGS_BASE_URL \(or OPENAI_BASE_URL\), EMBEDDING_MODEL_ID, EMBEDDING_DIMENSIONS/,
    );
    expect(() => loadConfig({ ...base, EMBEDDING_PROVIDER: 'openai', EMBEDDING_MODEL_ID: 'nomic-embed-text', OPENAI_BASE_URL: 'http://localhost:11434/v1' })).toThrow(
      /needs EMBEDDING_DIMENSIONS$/,
    );
  });

  it('falls back to the chat model server and its key for an OpenAI-compatible embeddings server', () => {
    const config = loadConfig({
      ...base,
      EMBEDDING_PROVIDER: 'openai',
      EMBEDDING_MODEL_ID: 'nomic-embed-text',
      EMBEDDING_DIMENSIONS: '768',
      OPENAI_BASE_URL: 'http://localhost:11434/v1',
      OPENAI_API_KEY: 'sk-chat',
    });

    expect(config.embeddings).toEqual({ provider: 'openai', modelId: 'nomic-embed-text', dimensions: 768, baseUrl: 'http://localhost:11434/v1', apiKey: 'sk-chat' });
  });

  it('prefers the embeddings-specific base URL and key over the chat ones', () => {
    const config = loadConfig({
      ...base,
      EMBEDDING_PROVIDER: 'openai',
      EMBEDDING_MODEL_ID: 'text-embedding-3-small',
      EMBEDDING_DIMENSIONS: '1536',
      OPENAI_BASE_URL: 'http://localhost:11434/v1',
      OPENAI_API_KEY: 'sk-chat',
      OPENAI_EMBEDDINGS_BASE_URL: 'https://api.openai.com/v1',
      OPENAI_EMBEDDINGS_API_KEY: 'sk-embed',
    });

    expect(config.embeddings).toEqual({ provider: 'openai', modelId: 'text-embedding-3-small', dimensions: 1536, baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-embed' });
  });

  it('leaves the key out when none is configured', () => {
    const config = loadConfig({ ...base, EMBEDDING_PROVIDER: 'openai', EMBEDDING_MODEL_ID: 'm', EMBEDDING_DIMENSIONS: '8', OPENAI_EMBEDDINGS_BASE_URL: 'http://localhost:8080/v1' });

    expect(config.embeddings).not.toHaveProperty('apiKey');
  });

  it('refuses an unknown provider and malformed sizes or URLs, naming the setting', () => {
    expect(() => loadConfig({ ...base, EMBEDDING_PROVIDER: 'cohere' })).toThrow(/EMBEDDING_PROVIDER/);
    expect(() => loadConfig({ ...base, EMBEDDING_DIMENSIONS: 'many' })).toThrow(/EMBEDDING_DIMENSIONS/);
    expect(() => loadConfig({ ...base, EMBEDDING_DIMENSIONS: '0' })).toThrow(/EMBEDDING_DIMENSIONS/);
    expect(() => loadConfig({ ...base, OPENAI_EMBEDDINGS_BASE_URL: 'not a url' })).toThrow(/OPENAI_EMBEDDINGS_BASE_URL/);
  });
});

describe('createEmbeddings', () => {
  it('builds the Titan V2 adapter with the configured model and size for bedrock', () => {
    const embeddings = createEmbeddings(loadConfig({ ...base, EMBEDDING_PROVIDER: 'bedrock', EMBEDDING_DIMENSIONS: '1024' }));

    expect(embeddings).toBeInstanceOf(BedrockEmbeddings);
    expect({ modelId: embeddings.modelId, dimensions: embeddings.dimensions }).toEqual({ modelId: 'amazon.titan-embed-text-v2:0', dimensions: 1024 });
  });

  it('builds the OpenAI-compatible adapter for openai', () => {
    const embeddings = createEmbeddings(
      loadConfig({ ...base, EMBEDDING_PROVIDER: 'openai', EMBEDDING_MODEL_ID: 'nomic-embed-text', EMBEDDING_DIMENSIONS: '768', OPENAI_BASE_URL: 'http://localhost:11434/v1' }),
    );

    expect(embeddings).toBeInstanceOf(OpenAiCompatibleEmbeddings);
    expect({ modelId: embeddings.modelId, dimensions: embeddings.dimensions }).toEqual({ modelId: 'nomic-embed-text', dimensions: 768 });
  });

  it('returns the adapter the runtime supplies for local', () => {
    const local: EmbeddingPort = { modelId: 'local-test', dimensions: 3, embed: async (texts) => texts.map(() => new Float32Array([1, 0, 0])) };

    expect(createEmbeddings(loadConfig(base), { local: () => local })).toBe(local);
  });

  it('fails with a ConfigurationError when local is configured and no local adapter is supplied', () => {
    expect(() => createEmbeddings(loadConfig(base))).toThrow(ConfigurationError);
    expect(() => createEmbeddings(loadConfig(base))).toThrow(/factories\.local/);
  });
});
