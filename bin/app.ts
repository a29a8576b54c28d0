#!/usr/bin/env node
/** CDK entry: `npx cdk synth` / `npx cdk deploy` (`-c inspector=true` deploys the web inspector too). */
import { App } from 'aws-cdk-lib';
import { MemoryServiceStack } from '../lib/memory-service-stack.js';

const app = new App();
new MemoryServiceStack(app, app.node.tryGetContext('stackName') ?? 'AgentMemory', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  inspector: [true, 'true'].includes(app.node.tryGetContext('inspector')),
});
