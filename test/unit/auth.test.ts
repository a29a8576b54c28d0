import { describe, expect, it } from 'vitest';
import { bearerKey, fromAuthorizerContext, fromJwtClaims, hashApiKey, parseKeySeeds, toAuthorizerContext, type Principal } from '../../functions/domain/auth.js';
import { httpRouter, principalFromAuthorizer } from '../../functions/commons/http.js';
import { httpApiEvent, lambdaContext } from '../../local/lambda-events.js';
import { jsonResponse } from '../../functions/commons/http.js';

const principal: Principal = { tenantId: 'acme', scopes: ['read'], agents: ['a1'], keyId: 'key_1' };

describe('authorizer context', () => {
  it('round-trips a principal through the flat context API Gateway passes on', () => {
    expect(fromAuthorizerContext(toAuthorizerContext(principal))).toEqual(principal);
    expect(fromAuthorizerContext(toAuthorizerContext({ ...principal, agents: '*' }))).toMatchObject({ agents: '*' });
  });

  it('fails closed on anything malformed: no tenant, unknown scope, bad agent id, not an object', () => {
    expect(fromAuthorizerContext(undefined)).toBeUndefined();
    expect(fromAuthorizerContext({ scopes: 'read', agents: '*' })).toBeUndefined();
    expect(fromAuthorizerContext({ tenantId: 'acme', scopes: 'read,root', agents: '*' })).toBeUndefined();
    expect(fromAuthorizerContext({ tenantId: 'acme', scopes: 'read', agents: 'a1,../x' })).toBeUndefined();
    expect(fromAuthorizerContext({ tenantId: 'ac/me', scopes: 'read', agents: '*' })).toBeUndefined();
  });

  it('reads an empty agent list as no agent at all, never as every agent', () => {
    expect(fromAuthorizerContext({ tenantId: 'acme', scopes: 'read', agents: '' })).toMatchObject({ agents: [] });
  });
});

describe('bearer keys', () => {
  it('takes the key from a Bearer header only', () => {
    expect(bearerKey('Bearer abc')).toBe('abc');
    expect(bearerKey('bearer   abc ')).toBe('abc');
    expect(bearerKey('Basic abc')).toBeUndefined();
    expect(bearerKey('Bearer a b')).toBeUndefined();
    expect(bearerKey(undefined)).toBeUndefined();
  });

  it('are stored as SHA-256 hex digests', () => {
    expect(hashApiKey('k1')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey('k1')).not.toBe(hashApiKey('k2'));
  });
});

describe('MEMORY_API_KEYS', () => {
  it('parses tenant:key:scopes with + between scopes, and an optional agent list', () => {
    const { seeds, issues } = parseKeySeeds('acme:k1:read+write+admin, globex:k2:read+write,acme:k3:read:a1+a2');

    expect(issues).toEqual([]);
    expect(seeds).toEqual([
      { tenantId: 'acme', key: 'k1', scopes: ['read', 'write', 'admin'], agents: '*' },
      { tenantId: 'globex', key: 'k2', scopes: ['read', 'write'], agents: '*' },
      { tenantId: 'acme', key: 'k3', scopes: ['read'], agents: ['a1', 'a2'] },
    ]);
  });

  it('names each malformed entry', () => {
    const { issues } = parseKeySeeds('acme:k1:read+root,:k2:read,acme:k3:,acme::read');

    expect(issues.map((issue) => issue.field)).toEqual(['MEMORY_API_KEYS[0]', 'MEMORY_API_KEYS[1]', 'MEMORY_API_KEYS[2]', 'MEMORY_API_KEYS[3]']);
    expect(issues[0]!.rule).toContain('root');
  });
});

describe('the router', () => {
  const handler = httpRouter('Status', { readStatus: async ({ agent }) => jsonResponse(200, agent), readOpenApi: async () => jsonResponse(200, {}) });
  const call = (authorizer: Parameters<typeof httpApiEvent>[0]['authorizer'], agentId = 'a1', method = 'GET') =>
    handler(httpApiEvent({ method, path: `/v1/agents/${agentId}/status`, pathParameters: { agentId }, authorizer }), lambdaContext('status'));

  it('answers 401 when the event carries no authorizer context', async () => {
    expect((await call(null)).statusCode).toBe(401);
  });

  it('takes the tenant from the authorizer context', async () => {
    const response = await call(toAuthorizerContext(principal));
    expect(JSON.parse(response.body!)).toEqual({ tenantId: 'acme', agentId: 'a1' });
  });

  it("answers 403 for a scope the key lacks or an agent outside the key's list", async () => {
    expect((await call(toAuthorizerContext({ ...principal, scopes: ['write'] }))).statusCode).toBe(403);
    expect((await call(toAuthorizerContext(principal), 'a2')).statusCode).toBe(403);
  });

  it('checks the key before the method, as API Gateway does', async () => {
    expect((await call(null, 'a1', 'POST')).statusCode).toBe(401);
    expect((await call(toAuthorizerContext(principal), 'a1', 'POST')).statusCode).toBe(405);
  });
});

describe('JWT claims (the identity-provider mode)', () => {
  const claims = { sub: 'user-42', tenant_id: 'acme', scope: 'openid agent-memory/read https://api.example.com/write unknown', agents: '[a1 a2]' };

  it('give the tenant, the scopes by their last segment, and the agents when a claim lists them', () => {
    expect(fromJwtClaims(claims)).toEqual({ tenantId: 'acme', scopes: ['read', 'write'], agents: '*', keyId: 'jwt:user-42' });
    expect(fromJwtClaims(claims, { tenant: 'tenant_id', scopes: 'scope', agents: 'agents' })).toMatchObject({ agents: ['a1', 'a2'] });
    expect(fromJwtClaims({ ...claims, 'custom:tenant': 'globex' }, { tenant: 'custom:tenant', scopes: 'scope' })).toMatchObject({ tenantId: 'globex' });
  });

  it('fail closed without a valid tenant', () => {
    expect(fromJwtClaims({ ...claims, tenant_id: undefined })).toBeUndefined();
    expect(fromJwtClaims({ ...claims, tenant_id: 'no spaces allowed' })).toBeUndefined();
    expect(fromJwtClaims(undefined)).toBeUndefined();
  });

  it('are read from requestContext.authorizer.jwt by the router, which checks scopes as for keys', () => {
    const event = httpApiEvent({ method: 'GET', path: '/v1/agents/a1/status', pathParameters: { agentId: 'a1' }, authorizer: null });
    const withJwt = { ...event, requestContext: { ...event.requestContext, authorizer: { jwt: { claims, scopes: null } } } } as typeof event;
    expect(principalFromAuthorizer(withJwt)).toEqual({ tenantId: 'acme', scopes: ['read', 'write'], agents: '*', keyId: 'jwt:user-42' });
    expect(principalFromAuthorizer(event)).toBeUndefined();
  });
});
