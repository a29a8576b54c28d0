/** Lambda entry: the API key authorizer (API Gateway HTTP API, simple responses). */
import { createAuthorizerHandler } from './http/authorizer-handler.js';
import { awsRuntime } from '../commons/runtime/aws.js';
import { DynamoDbApiKeyStore } from '../adapters/dynamodb/api-key-store.js';

const { config, clients } = awsRuntime();
if (!config.keysTableName) throw new Error('invalid configuration: the authorizer needs KEYS_TABLE_NAME');

export const handler = createAuthorizerHandler({ keys: new DynamoDbApiKeyStore(clients.dynamo, config.keysTableName) });
