/**
 * What every stage of the stack builds on: the data resources, the shared
 * function environment and the permission helpers. Stages add their
 * resources to the stack itself (not to a construct of their own), so the
 * logical ids of tables, queues and functions are those of the single-file
 * stack they were split from, and a deployed stack updates in place.
 */
import type { Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { DEFAULT_BEDROCK_EMBEDDING_MODEL_ID, DEFAULT_BEDROCK_MODEL_ID } from '../../functions/commons/config.js';
import type { AgentPartitionedTable } from '../constructs/agent-partitioned-table.js';
import type { ConsolidationQueue } from '../constructs/consolidation-queue.js';
import type { IdleCheckQueue } from '../constructs/idle-check-queue.js';
import type { RawLogBucket } from '../constructs/raw-log-bucket.js';

export interface ServiceData {
  readonly rawLog: RawLogBucket;
  readonly agents: AgentPartitionedTable;
  readonly memory: AgentPartitionedTable;
  readonly summaries: AgentPartitionedTable;
  readonly consolidation: ConsolidationQueue;
  readonly idleChecks: IdleCheckQueue;
  /** Every function's environment (stages add their own variables on top). */
  readonly environment: Readonly<Record<string, string>>;
  /** Files the functions that embed read at run time (the local encoder's model; none for a remote embedding model). */
  readonly embeddingFiles: readonly string[];
}

export interface ModelAccess {
  readonly modelProvider: 'local' | 'bedrock' | 'openai';
  readonly modelId?: string;
  readonly embeddingProvider: 'local' | 'bedrock' | 'openai';
  readonly embeddingModelId?: string;
  readonly openAiKey?: ISecret;
}

/** The grants functions share: model and embedding calls, raw records, the index. */
export class ServicePermissions {
  constructor(
    private readonly stack: Stack,
    private readonly data: ServiceData,
    private readonly models: ModelAccess,
  ) {}

  /**
   * Least privilege: only the configured model (and, for a cross-region inference profile such as
   * `us.anthropic...`, that profile and the foundation model it routes to in any region).
   */
  allowModel(fn: NodejsFunction): void {
    if (this.models.modelProvider === 'openai') this.models.openAiKey?.grantRead(fn);
    if (this.models.modelProvider !== 'bedrock') return;
    const bedrockModelId = this.models.modelId ?? DEFAULT_BEDROCK_MODEL_ID;
    const profile = /^(us|us-gov|eu|apac|jp|au|ca|global)\./.exec(bedrockModelId);
    const foundationModelId = profile ? bedrockModelId.slice(profile[0].length) : bedrockModelId;
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['bedrock:InvokeModel'],
        resources: [
          `arn:${this.stack.partition}:bedrock:*::foundation-model/${foundationModelId}`,
          ...(profile ? [`arn:${this.stack.partition}:bedrock:*:${this.stack.account}:inference-profile/${bedrockModelId}`] : []),
        ],
      }),
    );
  }

  /** Only the functions that embed (units at consolidation and on the ladders, queries on reads) may call the embedding model, and only that model. */
  allowEmbeddings(fn: NodejsFunction): void {
    if (this.models.embeddingProvider === 'openai') this.models.openAiKey?.grantRead(fn);
    if (this.models.embeddingProvider !== 'bedrock') return;
    const embeddingModelId = this.models.embeddingModelId ?? DEFAULT_BEDROCK_EMBEDDING_MODEL_ID;
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['bedrock:InvokeModel'], resources: [`arn:${this.stack.partition}:bedrock:${this.stack.region}::foundation-model/${embeddingModelId}`] }),
    );
  }

  readRawRecords(): PolicyStatement {
    return new PolicyStatement({ actions: ['s3:GetObject'], resources: [this.data.rawLog.bucket.arnForObjects('raw/*')] });
  }

  /** The retrieval index: segments under index/ (written, merged and replaced offline; read by the read path). */
  maintainIndex(): PolicyStatement {
    return new PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'], resources: [this.data.rawLog.bucket.arnForObjects('index/*')] });
  }

  /**
   * Without s3:ListBucket, S3 answers a missing key with 403 instead of 404; the raw log (holes) and the index
   * (segments merged away) read a missing object as absent, so every function that reads objects may list.
   */
  knowMissingObjects(): PolicyStatement {
    return new PolicyStatement({ actions: ['s3:ListBucket'], resources: [this.data.rawLog.bucket.bucketArn] });
  }
}
