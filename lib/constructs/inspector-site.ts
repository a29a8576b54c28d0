/**
 * The web inspector, deployed: its static files in a private S3 bucket behind
 * CloudFront (origin access control), and the API behind the same
 * distribution under `/v1/*` and `/openapi.json`, so the page calls the API
 * on its own origin (no CORS) with the key the user types in. API responses
 * are never cached and every viewer header but Host (the Authorization
 * header included) reaches API Gateway.
 */
import { Duration, Fn, RemovalPolicy } from 'aws-cdk-lib';
import { AllowedMethods, CachePolicy, Distribution, HeadersFrameOption, HeadersReferrerPolicy, OriginProtocolPolicy, OriginRequestPolicy, ResponseHeadersPolicy, ViewerProtocolPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { fileURLToPath } from 'node:url';

export interface InspectorSiteProps {
  readonly api: HttpApi;
  /** Folder of the inspector's static files. @default the repository's `inspector/` */
  readonly sourceDirectory?: string;
}

export class InspectorSite extends Construct {
  readonly distribution: Distribution;
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: InspectorSiteProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Files', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });
    // The API's host name, from its endpoint URL (https://<id>.execute-api.<region>.amazonaws.com).
    const apiHost = Fn.select(2, Fn.split('/', props.api.apiEndpoint));
    const apiOrigin = new HttpOrigin(apiHost, { protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY });
    const apiBehavior = {
      origin: apiOrigin,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    };
    const securityHeaders = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'", override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      },
    });
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Agent memory inspector and API',
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        responseHeadersPolicy: securityHeaders,
      },
      additionalBehaviors: { '/v1/*': apiBehavior, '/openapi.json': apiBehavior },
    });
    new BucketDeployment(this, 'Deploy', {
      sources: [Source.asset(props.sourceDirectory ?? fileURLToPath(new URL('../../inspector', import.meta.url)))],
      destinationBucket: this.bucket,
      distribution: this.distribution,
      distributionPaths: ['/*'],
    });
  }
}
