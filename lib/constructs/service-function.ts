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
  /**
   * Files the function reads from disk at run time (absolute paths), copied
   * beside its index.mjs (see bundling/runtime-files.ts).
   * @default none
   */
  readonly runtimeFiles?: readonly string[];
}

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const esmShims = fileURLToPath(new URL('./bundling/esm-shims.mjs', import.meta.url));

/** POSIX shell quoting for the copy commands of `runtimeFiles`. */
const quote = (path: string) => `'${path.replaceAll("'", "'\\''")}'`;

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
        // Stack traces name the source file and line (--enable-source-maps below); the sources' text is left
        // out of the map, which takes it from 22 MB to 6 MB for the consolidator and halves its parse at cold start.
        sourceMap: true,
        sourcesContent: false,
        mainFields: ['module', 'main'],
        // Some dependencies still call require(); give ESM bundles one.
        banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
        // ...and some read files beside their own code through __dirname.
        inject: [esmShims],
        // The AWS SDK is bundled at the pinned versions the tests ran, not taken from the Lambda
        // runtime, whose SDK version moves on its own schedule.
        externalModules: [],
        forceDockerBundling: false,
        ...(props.runtimeFiles && props.runtimeFiles.length > 0
          ? {
              commandHooks: {
                beforeBundling: () => [],
                beforeInstall: () => [],
                afterBundling: (_inputDir: string, outputDir: string) => [`cp ${props.runtimeFiles!.map(quote).join(' ')} ${quote(outputDir)}/`],
              },
            }
          : {}),
      },
    });
    (this.function.node.defaultChild as CfnFunction).addMetadata(ENTRY_METADATA_KEY, props.entry);
  }
}
