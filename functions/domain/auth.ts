/**
 * Who is calling: the principal an API key (or an identity provider's token)
 * stands for, how it travels in the authorizer context, and the checks every
 * route applies. Pure: no I/O.
 */
import { createHash } from 'node:crypto';
import { AGENT_ID_PATTERN } from './agent-key.js';
import type { FieldIssue } from './errors.js';

export const SCOPES = ['read', 'write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** Tenant ids: the same alphabet as agent ids, so they are safe in keys, prefixes and group ids. */
export const TENANT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** What a verified credential allows. */
export interface Principal {
  readonly tenantId: string;
  /** Scopes are independent: `admin` does not imply `read` or `write` (a key gets exactly what it lists). */
  readonly scopes: readonly Scope[];
  /** The agents the key may address; `'*'` for every agent of the tenant. */
  readonly agents: readonly string[] | '*';
  /** A non-secret identifier of the key (for the audit and erasure records). */
  readonly keyId: string;
}

/**
 * The authorizer context as API Gateway passes it to the integration
 * (`requestContext.authorizer.lambda`). Flat strings only: simple-response
 * context values are kept scalar so no API Gateway version flattens them.
 */
export interface AuthorizerContext {
  readonly tenantId: string;
  /** Comma-separated scopes. */
  readonly scopes: string;
  /** `*` or comma-separated agent ids. */
  readonly agents: string;
  readonly keyId: string;
}

export function toAuthorizerContext(principal: Principal): AuthorizerContext {
  return {
    tenantId: principal.tenantId,
    scopes: principal.scopes.join(','),
    agents: principal.agents === '*' ? '*' : principal.agents.join(','),
    keyId: principal.keyId,
  };
}

/**
 * Reads a principal back from an authorizer context. Anything malformed is
 * `undefined`, so a misconfigured route fails closed (401), never open.
 */
export function fromAuthorizerContext(context: unknown): Principal | undefined {
  if (!context || typeof context !== 'object') return undefined;
  const value = context as Record<string, unknown>;
  const list = (field: unknown): string[] | undefined => {
    if (Array.isArray(field) && field.every((item) => typeof item === 'string')) return field as string[];
    if (typeof field === 'string') return field === '' ? [] : field.split(',');
    return undefined;
  };
  if (typeof value.tenantId !== 'string' || !TENANT_ID_PATTERN.test(value.tenantId)) return undefined;
  const scopes = list(value.scopes);
  if (!scopes || !scopes.every((scope): scope is Scope => (SCOPES as readonly string[]).includes(scope))) return undefined;
  const agentsField = value.agents;
  const agents = agentsField === '*' ? '*' : list(agentsField);
  if (agents === undefined) return undefined;
  if (agents !== '*' && !agents.every((agent) => AGENT_ID_PATTERN.test(agent))) return undefined;
  const keyId = typeof value.keyId === 'string' ? value.keyId : 'unknown';
  return { tenantId: value.tenantId, scopes: scopes as Scope[], agents, keyId };
}

/** Where a JWT's claims carry the tenant, the scopes and (optionally) the agents. */
export interface JwtClaimNames {
  readonly tenant: string;
  readonly scopes: string;
  readonly agents?: string;
}

export const DEFAULT_JWT_CLAIMS: JwtClaimNames = { tenant: 'tenant_id', scopes: 'scope' };

/**
 * A principal from the claims API Gateway's JWT authorizer verified
 * (`requestContext.authorizer.jwt.claims`). Scopes are a space- or
 * comma-separated list (or an array); an entry counts by its last segment, so
 * `agent-memory/read` and `https://api.example.com/read` are `read`. Unknown
 * scopes are ignored; a missing or malformed tenant is `undefined` (401).
 */
export function fromJwtClaims(claims: unknown, names: JwtClaimNames = DEFAULT_JWT_CLAIMS): Principal | undefined {
  if (!claims || typeof claims !== 'object') return undefined;
  const value = claims as Record<string, unknown>;
  const tenantId = value[names.tenant];
  if (typeof tenantId !== 'string' || !TENANT_ID_PATTERN.test(tenantId)) return undefined;
  const entries = (field: unknown): string[] => {
    if (Array.isArray(field)) return field.filter((item): item is string => typeof item === 'string');
    // API Gateway passes array claims as "[a b]".
    if (typeof field === 'string') return field.replace(/^\[|\]$/g, '').split(/[\s,]+/).filter(Boolean);
    return [];
  };
  const scopes = [...new Set(entries(value[names.scopes]).map((entry) => entry.split(/[/:]/).at(-1)!).filter((scope): scope is Scope => (SCOPES as readonly string[]).includes(scope)))];
  const agentsClaim = names.agents ? value[names.agents] : undefined;
  const agents = agentsClaim === undefined || agentsClaim === '*' ? '*' : entries(agentsClaim).filter((agent) => AGENT_ID_PATTERN.test(agent));
  const subject = typeof value.sub === 'string' ? value.sub : 'unknown';
  return { tenantId, scopes, agents, keyId: `jwt:${subject}` };
}

export function hasScope(principal: Principal, scope: Scope): boolean {
  return principal.scopes.includes(scope);
}

export function allowsAgent(principal: Principal, agentId: string): boolean {
  return principal.agents === '*' || principal.agents.includes(agentId);
}

/** Keys are stored and looked up by this digest only; the key itself is never kept. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A short, non-secret id derived from the digest (shown by `keys list`, used by `keys revoke`). */
export function keyIdOf(keyHash: string): string {
  return `key_${keyHash.slice(0, 12)}`;
}

/** The key in an `Authorization: Bearer <key>` header; `undefined` when absent or of another scheme. */
export function bearerKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S{1,512})[ \t]*$/i.exec(header);
  return match?.[1];
}

/** One `tenant:key:scopes` seed (scopes joined by `+`, optionally `:agent1+agent2`). */
export interface KeySeed {
  readonly tenantId: string;
  readonly key: string;
  readonly scopes: readonly Scope[];
  readonly agents: readonly string[] | '*';
}

/**
 * Parses `MEMORY_API_KEYS`: comma-separated `tenant:key:scopes[:agents]`,
 * scopes and agents joined by `+`, e.g. `acme:k1:read+write+admin,globex:k2:read+write`.
 */
export function parseKeySeeds(spec: string): { seeds: KeySeed[]; issues: FieldIssue[] } {
  const seeds: KeySeed[] = [];
  const issues: FieldIssue[] = [];
  spec
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .forEach((entry, index) => {
      const field = `MEMORY_API_KEYS[${index}]`;
      const [tenantId = '', key = '', scopeList = '', agentList, ...rest] = entry.split(':');
      if (rest.length > 0) return issues.push({ field, rule: 'must be tenant:key:scopes or tenant:key:scopes:agents' });
      if (!TENANT_ID_PATTERN.test(tenantId)) return issues.push({ field, rule: 'tenant must be 1 to 64 letters, digits, ".", "_" or "-"' });
      if (!/^[\x21-\x7e]{1,512}$/.test(key) || key.includes(',')) return issues.push({ field, rule: 'key must be 1 to 512 printable characters without spaces or commas' });
      const scopes = parseScopes(scopeList.split('+'));
      if ('rule' in scopes) return issues.push({ field, rule: scopes.rule });
      const agents = agentList === undefined ? '*' : agentList.split('+');
      if (agents !== '*' && !agents.every((agent) => AGENT_ID_PATTERN.test(agent))) return issues.push({ field, rule: 'agents must be valid agent ids joined by +' });
      seeds.push({ tenantId, key, scopes: scopes.scopes, agents });
      return undefined;
    });
  return { seeds, issues };
}

/** Validates a list of scope names (at least one, no unknown ones, no repeats kept). */
export function parseScopes(names: readonly string[]): { scopes: Scope[] } | { rule: string } {
  const cleaned = [...new Set(names.map((name) => name.trim()).filter((name) => name !== ''))];
  if (cleaned.length === 0) return { rule: `scopes must name at least one of ${SCOPES.join(', ')}` };
  const unknown = cleaned.filter((name) => !(SCOPES as readonly string[]).includes(name));
  if (unknown.length > 0) return { rule: `unknown scope ${unknown.join(', ')}; scopes are ${SCOPES.join(', ')}` };
  return { scopes: cleaned as Scope[] };
}
