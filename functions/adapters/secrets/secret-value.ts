/**
 * A secret read from AWS Secrets Manager once per cold start, when first
 * needed (not at import: a function that never calls the model never reads
 * it). A failed read is not cached, so the next call tries again. The value
 * is the secret string, or its `apiKey` field when the string is JSON.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

export type SecretSource = () => Promise<string>;

export function secretValue(secretId: string, client: Pick<SecretsManagerClient, 'send'> = new SecretsManagerClient({})): SecretSource {
  let value: Promise<string> | undefined;
  return () => {
    value ??= client.send(new GetSecretValueCommand({ SecretId: secretId })).then(
      (answer) => {
        const raw = answer.SecretString;
        if (!raw) throw new Error(`secret ${secretId} has no string value`);
        try {
          const parsed = JSON.parse(raw) as unknown;
          if (parsed && typeof parsed === 'object' && typeof (parsed as { apiKey?: unknown }).apiKey === 'string') return (parsed as { apiKey: string }).apiKey;
        } catch {
          // A plain string: the key itself.
        }
        return raw;
      },
      (error: unknown) => {
        value = undefined;
        throw error;
      },
    );
    return value;
  };
}

/** The key as a header value source: a literal, a secret, or none. */
export async function resolveKey(key: string | SecretSource | undefined): Promise<string | undefined> {
  return typeof key === 'function' ? key() : key;
}
