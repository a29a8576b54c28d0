import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

export interface RawLogBucketProps {
  /**
   * What happens to the raw log when the stack is deleted.
   * @default RemovalPolicy.RETAIN: raw records are the source of truth
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * Raw records expire this long after they were written.
   * @default never: the raw log is the evidence and the source of every rebuild
   */
  readonly expireRecordsAfter?: Duration;
  /**
   * Non-current versions (left by overwrites and deletions) expire this long after they became non-current.
   * @default Duration.days(30)
   */
  readonly expireNoncurrentVersionsAfter?: Duration;
}

/**
 * The raw-record log: one object per record, encrypted, never public,
 * reachable over TLS only.
 */
export class RawLogBucket extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: RawLogBucketProps = {}) {
    super(scope, id);
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    this.bucket = new Bucket(this, 'Bucket', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      versioned: true,
      removalPolicy,
      autoDeleteObjects: false,
      lifecycleRules: [
        {
          id: 'raw-log-retention',
          prefix: 'raw/',
          noncurrentVersionExpiration: props.expireNoncurrentVersionsAfter ?? Duration.days(30),
          ...(props.expireRecordsAfter ? { expiration: props.expireRecordsAfter } : { expiredObjectDeleteMarker: true }),
        },
        {
          // Index segments are derived and replaced whole (a fresh key per write, deleted after a merge):
          // their non-current versions are never read, and would otherwise stay for ever.
          id: 'index-segments',
          prefix: 'index/',
          noncurrentVersionExpiration: Duration.days(1),
          expiredObjectDeleteMarker: true,
        },
      ],
    });
  }
}
