/**
 * The price table the cost benchmark uses: us-east-1, on-demand list prices,
 * each line with the page that publishes it. Prices change; the table is
 * dated, and `npm run bench -- cost --prices <file.json>` prices the same
 * measured units with another table of this shape (another Region, a
 * negotiated rate, a later price change).
 *
 * These figures were transcribed on the date below from the named pages as
 * quoted elsewhere (this machine reaches no pricing page itself); check them
 * against the page before relying on a figure to the cent.
 */
export interface ModelPrice {
  /** Bedrock model or inference profile id. */
  readonly id: string;
  readonly label: string;
  /** Dollars per million tokens. */
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
  /** Prompt caching: a cache write costs this multiple of the input price, a cache read this multiple. */
  readonly cacheWriteFactor: number;
  readonly cacheReadFactor: number;
  /** The fewest tokens a cache checkpoint may cover: a shorter static prefix is not cached. */
  readonly minCacheTokens: number;
  readonly source: string;
}

export interface PriceTable {
  readonly date: string;
  readonly region: string;
  readonly lambda: { readonly perMillionRequests: number; readonly perGbSecondArm: number; readonly source: string };
  readonly apiGateway: { readonly perMillionHttpRequests: number; readonly source: string };
  readonly dynamodb: { readonly perMillionWriteUnits: number; readonly perMillionReadUnits: number; readonly perGbMonth: number; readonly source: string };
  readonly s3: { readonly perThousandPuts: number; readonly perThousandGets: number; readonly perGbMonth: number; readonly source: string };
  readonly sqs: { readonly perMillionFifo: number; readonly perMillionStandard: number; readonly source: string };
  readonly secretsManager: { readonly perSecretMonth: number; readonly perTenThousandCalls: number; readonly source: string };
  readonly cloudwatch: { readonly perGbLogsIngested: number; readonly perMetricMonth: number; readonly perAlarmMonth: number; readonly source: string };
  readonly embeddings: { readonly id: string; readonly perMillionTokens: number; readonly source: string };
  readonly models: readonly ModelPrice[];
  /** The managed peer, for the same workload: Amazon Bedrock AgentCore Memory. */
  readonly agentCore: {
    readonly perThousandShortTermEvents: number;
    /** Long-term records stored per month, built-in strategies (the model calls included). */
    readonly perThousandLongTermRecordsMonthBuiltIn: number;
    readonly perThousandLongTermRecordsMonthSelfManaged: number;
    readonly perThousandRetrievals: number;
    readonly source: string;
  };
}

export const PRICES_2026_12_02: PriceTable = {
  date: '2026-12-02',
  region: 'us-east-1',
  lambda: { perMillionRequests: 0.2, perGbSecondArm: 0.0000133334, source: 'https://aws.amazon.com/lambda/pricing/ (Arm, first 6 billion GB-seconds a month)' },
  apiGateway: { perMillionHttpRequests: 1.0, source: 'https://aws.amazon.com/api-gateway/pricing/ (HTTP APIs, first 300 million a month; each 512 KB of a request is one request)' },
  dynamodb: {
    perMillionWriteUnits: 0.625,
    perMillionReadUnits: 0.125,
    perGbMonth: 0.25,
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/ (on-demand, Standard table class; storage beyond the first 25 GB)',
  },
  s3: { perThousandPuts: 0.005, perThousandGets: 0.0004, perGbMonth: 0.023, source: 'https://aws.amazon.com/s3/pricing/ (S3 Standard: PUT, COPY, POST, LIST per 1,000; GET and others per 1,000; first 50 TB a month)' },
  sqs: { perMillionFifo: 0.5, perMillionStandard: 0.4, source: 'https://aws.amazon.com/sqs/pricing/ (after the first million a month; each 64 KB chunk of a request is one request)' },
  secretsManager: { perSecretMonth: 0.4, perTenThousandCalls: 0.05, source: 'https://aws.amazon.com/secrets-manager/pricing/' },
  cloudwatch: { perGbLogsIngested: 0.5, perMetricMonth: 0.3, perAlarmMonth: 0.1, source: 'https://aws.amazon.com/cloudwatch/pricing/ (logs: standard ingestion; custom metrics: first 10,000; standard-resolution alarms)' },
  embeddings: { id: 'amazon.titan-embed-text-v2:0', perMillionTokens: 0.02, source: 'https://aws.amazon.com/bedrock/pricing/ (Amazon Titan Text Embeddings V2)' },
  models: [
    {
      id: 'global.anthropic.claude-haiku-4-5-20251001-v1:0',
      label: 'Claude Haiku 4.5 (global profile)',
      inputPerMillion: 1.0,
      outputPerMillion: 5.0,
      cacheWriteFactor: 1.25,
      cacheReadFactor: 0.1,
      minCacheTokens: 4096,
      source: 'https://aws.amazon.com/bedrock/pricing/ (Anthropic; cache write 1.25x, read 0.1x of input) and the model card (a cache checkpoint covers at least 4,096 tokens)',
    },
    {
      id: 'us.amazon.nova-lite-v1:0',
      label: 'Amazon Nova Lite',
      inputPerMillion: 0.06,
      outputPerMillion: 0.24,
      cacheWriteFactor: 1,
      cacheReadFactor: 0.25,
      minCacheTokens: 1024,
      source: 'https://aws.amazon.com/bedrock/pricing/ (Amazon Nova; cached input read at a 75 % discount, writes not charged extra)',
    },
    {
      id: 'us.amazon.nova-micro-v1:0',
      label: 'Amazon Nova Micro',
      inputPerMillion: 0.035,
      outputPerMillion: 0.14,
      cacheWriteFactor: 1,
      cacheReadFactor: 0.25,
      minCacheTokens: 1024,
      source: 'https://aws.amazon.com/bedrock/pricing/ (Amazon Nova)',
    },
  ],
  agentCore: {
    perThousandShortTermEvents: 0.25,
    perThousandLongTermRecordsMonthBuiltIn: 0.75,
    perThousandLongTermRecordsMonthSelfManaged: 0.25,
    perThousandRetrievals: 0.5,
    source: 'https://aws.amazon.com/bedrock/agentcore/pricing/ (Memory: short-term events, long-term records stored per month, retrievals)',
  },
};
