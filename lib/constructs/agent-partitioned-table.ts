import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';

export interface AgentPartitionedTableProps {
  /**
   * What happens to the table when the stack is deleted.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * A stream of item changes, for tables whose writes trigger further work.
   * @default no stream
   */
  readonly stream?: StreamViewType;
  /**
   * Global secondary indexes (string keys), e.g. a sparse index for a sweep.
   * @default none
   */
  /**
   * Attribute holding an expiry time (epoch seconds) after which DynamoDB deletes the item.
   * @default no expiry
   */
  readonly timeToLiveAttribute?: string;
  /**
   * Days of point-in-time recovery (1 to 35).
   * @default 35
   */
  readonly recoveryPeriodInDays?: number;
  readonly indexes?: readonly { readonly name: string; readonly partitionKey: string; readonly sortKey: string; readonly include: readonly string[] }[];
}

/**
 * A table whose partition key `pk` is tenant and agent, with a sort key `sk`
 * (single-table design per agent). On demand, with point-in-time recovery.
 * The agents table (counters, claims, batch markers) and the memory table
 * (stores, views, audit) are both of this shape.
 */
export class AgentPartitionedTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string, props: AgentPartitionedTableProps = {}) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: props.recoveryPeriodInDays ?? 35 },
      encryption: TableEncryption.AWS_MANAGED,
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
      ...(props.stream ? { stream: props.stream } : {}),
      ...(props.timeToLiveAttribute ? { timeToLiveAttribute: props.timeToLiveAttribute } : {}),
    });
    for (const index of props.indexes ?? []) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.INCLUDE,
        nonKeyAttributes: [...index.include],
      });
    }
  }
}
