/** The embedding settings reach every function, and only the functions that embed may call the Bedrock embedding model. */
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryServiceStack, type MemoryServiceStackProps } from '../../lib/memory-service-stack.js';

function synth(props: MemoryServiceStackProps = {}): Template {
  // Bundling is exercised by the offline synth test; here it would only slow the assertions down.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  return Template.fromStack(new MemoryServiceStack(app, 'UnderTest', props));
}

interface Statement {
  readonly Action: string | string[];
  readonly Resource: unknown;
}

function statementsOfRole(template: Template, functionIdPrefix: string): Statement[] {
  const roleIds = Object.keys(template.findResources('AWS::IAM::Role')).filter((id) => id.startsWith(`${functionIdPrefix}FunctionServiceRole`));
  expect(roleIds).toHaveLength(1);
  const policies = template.findResources('AWS::IAM::Policy', { Properties: { Roles: Match.arrayWith([{ Ref: roleIds[0] }]) } });
  return Object.values(policies).flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
}

function invokeModelResources(template: Template, functionIdPrefix: string): string[] {
  return statementsOfRole(template, functionIdPrefix)
    .filter((statement) => [statement.Action].flat().includes('bedrock:InvokeModel'))
    .flatMap((statement) => [statement.Resource].flat())
    .map((resource) => JSON.stringify(resource));
}

const embedding = ['Consolidator', 'Ladder', 'Sweep', 'Reader'];
const notEmbedding = ['Ingest', 'Flush', 'IdleFlush', 'Status', 'MemoryReader'];

let local: Template;
let bedrock: Template;
let customModel: Template;

beforeAll(() => {
  local = synth();
  bedrock = synth({ embeddingProvider: 'bedrock', embeddingDimensions: 256 });
  customModel = synth({ embeddingProvider: 'bedrock', embeddingModelId: 'cohere.embed-english-v3' });
});

describe('embedding configuration in the stack', () => {
  it('tells every function to use the local embeddings by default, and grants no Bedrock access for them', () => {
    for (const fn of Object.values(local.findResources('AWS::Lambda::Function'))) {
      expect(fn.Properties.Environment.Variables.EMBEDDING_PROVIDER).toBe('local');
    }
    for (const id of [...embedding, ...notEmbedding]) expect(invokeModelResources(local, id)).toEqual([]);
  });

  it('passes the Bedrock embedding provider and size to every function, leaving the model id to the configuration default', () => {
    for (const fn of Object.values(bedrock.findResources('AWS::Lambda::Function'))) {
      expect(fn.Properties.Environment.Variables).toMatchObject({ EMBEDDING_PROVIDER: 'bedrock', EMBEDDING_DIMENSIONS: '256' });
      expect(fn.Properties.Environment.Variables).not.toHaveProperty('EMBEDDING_MODEL_ID');
    }
  });

  it('lets the consolidator, ladder, sweep and reader invoke only the embedding model foundation-model ARN', () => {
    for (const id of embedding) {
      const resources = invokeModelResources(bedrock, id);
      expect(resources).toHaveLength(1);
      expect(resources[0]).toContain('::foundation-model/amazon.titan-embed-text-v2:0');
      expect(resources[0]).not.toContain('*');
    }
  });

  it('grants no Bedrock access to the functions that do not embed', () => {
    for (const id of notEmbedding) expect(invokeModelResources(bedrock, id)).toEqual([]);
  });

  it('passes a configured embedding model id and grants that model rather than the default one', () => {
    customModel.allResourcesProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ EMBEDDING_MODEL_ID: 'cohere.embed-english-v3' }) },
    });
    for (const id of embedding) expect(invokeModelResources(customModel, id)).toEqual([expect.stringContaining('::foundation-model/cohere.embed-english-v3')]);
  });
});
