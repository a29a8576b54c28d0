/**
 * Page tokens handed to clients are sealed: the store's own token, then an
 * HMAC-SHA256 tag over the tenant, agent and list it continues. A token that
 * was altered, forged, or taken from another agent's or list's page is a 400
 * before any read. The key is the deployment's (a generated Secrets Manager
 * secret in the stack, read once per cold start and only when a token is
 * sealed or opened, so reads without pages never fetch it).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AgentKey } from '../domain/agent-key.js';
import { ValidationError } from '../domain/errors.js';

export interface PageTokenSeal {
  /** The token a client is given for `token`, the store's continuation of `list`. */
  seal(agent: AgentKey, list: string, token: string): Promise<string>;
  /** The store's token inside a client's, or a ValidationError naming `field`. */
  open(agent: AgentKey, list: string, sealed: string, field?: string): Promise<string>;
}

/** Bytes of the tag kept (128 bits). */
const TAG_BYTES = 16;

export function pageTokenSeal(key: string | (() => Promise<string>)): PageTokenSeal {
  const tag = async (agent: AgentKey, list: string, token: string) => {
    const secret = typeof key === 'function' ? await key() : key;
    if (!secret) throw new Error('page token key is empty');
    return createHmac('sha256', secret).update([agent.tenantId, agent.agentId, list, token].join('\u0000')).digest().subarray(0, TAG_BYTES);
  };
  return {
    async seal(agent, list, token) {
      return `${token}.${(await tag(agent, list, token)).toString('base64url')}`;
    },
    async open(agent, list, sealed, field = 'nextToken') {
      const refuse = () => new ValidationError([{ field, rule: 'must be a token returned by a previous page of this list, unchanged' }]);
      const dot = sealed.lastIndexOf('.');
      if (dot <= 0 || sealed.length > 8_192) throw refuse();
      const token = sealed.slice(0, dot);
      const given = Buffer.from(sealed.slice(dot + 1), 'base64url');
      const expected = await tag(agent, list, token);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse();
      return token;
    },
  };
}

/** A key for one process only: tokens do not survive a restart or reach another instance (tests, one-off tools). */
export const processPageTokenKey = (): string => randomBytes(32).toString('base64url');
