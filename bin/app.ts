#!/usr/bin/env node
/**
 * CDK entry: `npx cdk synth` / `npx cdk deploy`. Every production setting is
 * CDK context (`-c key=value`, cdk.json, or `-c configFile=deploy.json`);
 * lib/deploy-config.ts validates them all before anything is built, and
 * docs/deploy.md lists them.
 */
import { App } from 'aws-cdk-lib';
import { MemoryServiceStack } from '../lib/memory-service-stack.js';
import { DeployConfigError, readDeploySettings, stackPropsFrom } from '../lib/deploy-config.js';

const app = new App();
try {
  const settings = readDeploySettings((key) => app.node.tryGetContext(key));
  new MemoryServiceStack(app, settings.stackName ?? 'AgentMemory', {
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
    ...stackPropsFrom(settings),
  });
} catch (error) {
  if (!(error instanceof DeployConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
