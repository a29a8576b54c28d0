/**
 * Synthesises the CDK stack in-process and returns its CloudFormation
 * template. The local stack provisions from this template, so local and cloud
 * resources come from the same definitions and cannot drift.
 */
import { App } from 'aws-cdk-lib';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryServiceStack, type MemoryServiceStackProps } from '../lib/memory-service-stack.js';

export type CfnTemplate = { Resources: Record<string, CfnResource> };
export interface CfnResource {
  readonly Type: string;
  readonly Properties?: Record<string, unknown>;
  readonly Metadata?: Record<string, unknown>;
}

export const LOCAL_STACK_NAME = 'AgentMemoryLocal';

export function synthesizeTemplate(props: MemoryServiceStackProps = {}): CfnTemplate {
  const outdir = mkdtempSync(join(tmpdir(), 'agent-memory-synth-'));
  try {
    // Bundling is skipped: the local runtime imports the TypeScript handlers directly.
    const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new MemoryServiceStack(app, LOCAL_STACK_NAME, props);
    return app.synth().getStackByName(stack.stackName).template as CfnTemplate;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
