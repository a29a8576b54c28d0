/** The configured page-token key: a Secrets Manager secret (read when first needed), a literal, or this process's own. */
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { secretValue } from '../../adapters/secrets/secret-value.js';
import { pageTokenSeal, processPageTokenKey, type PageTokenSeal } from '../page-tokens.js';
import type { ServiceConfig } from '../config.js';

export function createPageTokens(config: Pick<ServiceConfig, 'pageTokenKey' | 'region'>): PageTokenSeal {
  const key = config.pageTokenKey;
  if (!key) return pageTokenSeal(processPageTokenKey());
  return pageTokenSeal('secretId' in key ? secretValue(key.secretId, new SecretsManagerClient({ region: config.region })) : key.key);
}
