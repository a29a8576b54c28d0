import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';

export interface ApiKeysTableProps {
  /**
   * What happens to the table when the stack is deleted.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * Days of point-in-time recovery (1 to 35).
   * @default 35
   */
  readonly recoveryPeriodInDays?: number;
}

/**
 * API keys by the hex SHA-256 digest of the key (partition key `keyHash`,
 * no sort key): the authorizer's one lookup is a GetItem, and a copy of the
 * table holds no usable credential. On demand, encrypted, point-in-time recovery.
 */
export class ApiKeysTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string, props: ApiKeysTableProps = {}) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: 'keyHash', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: props.recoveryPeriodInDays ?? 35 },
      encryption: TableEncryption.AWS_MANAGED,
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
    });
  }
}
