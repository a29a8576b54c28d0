/**
 * `npm run keys -- <create|list|revoke> [options]`: API keys.
 *
 *   create --tenant <t> --scopes read,write[,admin] [--agents a,b] [--description text]
 *          prints the new key once (only its SHA-256 digest is stored)
 *   list   [--tenant <t>]            key ids, tenants, scopes, agents (never keys)
 *   revoke --key-id <key_...>        deletes the key (API Gateway may serve a cached
 *                                    verdict for up to the authorizer TTL, 5 minutes)
 *
 * Target: `--table <name>` (a deployed stack's `ApiKeysTableName` output, or
 * KEYS_TABLE_NAME), with the usual AWS credentials and region; for the local
 * stack, `--endpoint <emulator URL>` (printed by `npm start`, or
 * AWS_ENDPOINT_URL) and the table is found by its local name
 * (`--prefix`, default `agent-memory`).
 */
import { parseArgs } from 'node:util';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoDbApiKeyStore } from '../functions/adapters/dynamodb/api-key-store.js';
import { AGENT_ID_PATTERN } from '../functions/domain/agent-key.js';
import { TENANT_ID_PATTERN, parseScopes } from '../functions/domain/auth.js';
import { createApiKey } from '../functions/use-cases/api-keys.js';

const usage = `usage: npm run keys -- create --tenant <t> --scopes read,write[,admin] [--agents a,b]
       npm run keys -- list [--tenant <t>]
       npm run keys -- revoke --key-id <key_...>
target: --table <ApiKeysTableName> (deployed) | --endpoint <emulator URL> [--prefix agent-memory] (local)
`;

function fail(message: string): never {
  process.stderr.write(`${message}\n${usage}`);
  process.exit(2);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    tenant: { type: 'string' },
    scopes: { type: 'string' },
    agents: { type: 'string' },
    description: { type: 'string' },
    'key-id': { type: 'string' },
    table: { type: 'string', default: process.env.KEYS_TABLE_NAME },
    endpoint: { type: 'string', default: process.env.AWS_ENDPOINT_URL },
    prefix: { type: 'string', default: 'agent-memory' },
  },
});

const command = positionals[0];
if (command !== 'create' && command !== 'list' && command !== 'revoke') fail('a command is required: create, list or revoke');

const local = values.endpoint !== undefined;
const dynamodb = new DynamoDBClient(local ? { endpoint: values.endpoint, region: process.env.AWS_REGION ?? 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } } : {});

async function keysTable(): Promise<string> {
  if (values.table) return values.table;
  if (!local) fail('no target: give --table (the stack output ApiKeysTableName) or --endpoint for the local stack');
  const names: string[] = [];
  let start: string | undefined;
  do {
    const page = await dynamodb.send(new ListTablesCommand({ ExclusiveStartTableName: start }));
    names.push(...(page.TableNames ?? []));
    start = page.LastEvaluatedTableName;
  } while (start);
  const matches = names.filter((name) => name.startsWith(`${values.prefix}-ApiKeys`));
  if (matches.length !== 1) fail(`expected one table named ${values.prefix}-ApiKeys* on ${values.endpoint}, found ${matches.length}; pass --table`);
  return matches[0]!;
}

const store = new DynamoDbApiKeyStore(DynamoDBDocumentClient.from(dynamodb), await keysTable());

if (command === 'create') {
  const tenantId = values.tenant ?? fail('--tenant is required');
  if (!TENANT_ID_PATTERN.test(tenantId)) fail('--tenant must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit');
  const scopes = parseScopes((values.scopes ?? '').split(','));
  if ('rule' in scopes) fail(`--scopes: ${scopes.rule}`);
  const agents = values.agents === undefined ? '*' : values.agents.split(',').map((agent) => agent.trim());
  if (agents !== '*' && (agents.length === 0 || !agents.every((agent) => AGENT_ID_PATTERN.test(agent)))) fail('--agents must be comma-separated agent ids');
  const { key, stored } = await createApiKey(store, { tenantId, scopes: scopes.scopes, agents, ...(values.description ? { description: values.description } : {}) });
  process.stdout.write(`${key}\n`);
  process.stderr.write(`created ${stored.keyId} for tenant ${tenantId}, scopes ${stored.scopes.join(',')}, agents ${agents === '*' ? 'all' : agents.join(',')}\n`);
  process.stderr.write('the key is shown once: only its SHA-256 digest is stored\n');
} else if (command === 'list') {
  for (const key of await store.list(values.tenant)) {
    const agents = key.agents === '*' ? '*' : key.agents.join(',');
    process.stdout.write(`${key.keyId}  tenant=${key.tenantId}  scopes=${key.scopes.join(',')}  agents=${agents}  created=${key.createdAt}${key.description ? `  ${key.description}` : ''}\n`);
  }
} else {
  const keyId = values['key-id'] ?? fail('--key-id is required (see list)');
  const revoked = await store.revoke(keyId);
  if (!revoked) {
    process.stderr.write(`no key ${keyId}\n`);
    process.exit(1);
  }
  process.stdout.write(`revoked ${keyId}\n`);
}
