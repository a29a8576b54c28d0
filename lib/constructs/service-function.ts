import { Duration } from 'aws-cdk-lib';
import { Architecture, Runtime, Tracing, type CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { fileURLToPath } from 'node:url';

/** Metadata key naming a function's entry file; the local runtime reads it from the template. */
export const ENTRY_METADATA_KEY = 'agent-memory:entry';

export interface ServiceFunctionProps {
  /** Entry file relative to the project root, e.g. `functions/ingest.ts`. */
  readonly entry: string;
  readonly environment: Record<string, string>;
  /** @default Duration.seconds(29) (the API Gateway integration limit) */
  readonly timeout?: Duration;
  /** @default 1024 */
  readonly memorySize?: number;
  readonly description?: string;
}

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A Lambda function with the house defaults: Node.js 22 on arm64, bundled
 * locally by esbuild as ESM (no Docker), X-Ray tracing, bounded log retention.
 */
export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const logGroup = new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH });
    this.function = new NodejsFunction(this, 'Function', {
      entry: `${projectRoot}${props.entry}`,
      projectRoot,
      depsLockFilePath: `${projectRoot}package-lock.json`,
      handler: 'handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 1024,
      timeout: props.timeout ?? Duration.seconds(29),
      tracing: Tracing.ACTIVE,
      logGroup,
      description: props.description,
      environment: { NODE_OPTIONS: '--enable-source-maps', ...props.environment },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        mainFields: ['module', 'main'],
        // Some dependencies still call require(); give ESM bundles one.
        banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
        forceDockerBundling: false,
      },
    });
    (this.function.node.defaultChild as CfnFunction).addMetadata(ENTRY_METADATA_KEY, props.entry);
  }
}
