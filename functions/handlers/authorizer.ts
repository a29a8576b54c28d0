/** Lambda entry: the API key authorizer (API Gateway HTTP API, simple responses). */
import { createAuthorizerHandler } from './http/authorizer-handler.js';
import { loadConfig } from '../commons/config.js';
import { createAwsClients } from '../commons/clients.js';
import { DynamoDbApiKeyStore } from '../adapters/dynamodb/api-key-store.js';

const config = loadConfig();
if (!config.keysTableName) throw new Error('invalid configuration: the authorizer needs KEYS_TABLE_NAME');

export const handler = createAuthorizerHandler({ keys: new DynamoDbApiKeyStore(createAwsClients(config).dynamo, config.keysTableName) });
