/**
 * Tenant and agent identify every key and prefix (invariant 10). The tenant is
 * `default` until authentication exists.
 */
export interface AgentKey {
  readonly tenantId: string;
  readonly agentId: string;
}

/** Agent ids: 1 to 64 characters, letters, digits, `.`, `_` or `-`, starting with a letter or digit. */
export const AGENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Partition key shared by everything one agent owns in DynamoDB. */
export function agentPartitionKey(agent: AgentKey): string {
  return `T#${agent.tenantId}#A#${agent.agentId}`;
}

/** S3 prefix under which an agent's raw records live. */
export function rawRecordPrefix(agent: AgentKey): string {
  return `raw/${agent.tenantId}/${agent.agentId}/`;
}

/** Zero padding keeps S3 keys in sequence order, so a batch is a key range. */
export const SEQUENCE_DIGITS = 12;

export function rawRecordKey(agent: AgentKey, sequence: number): string {
  return `${rawRecordPrefix(agent)}${String(sequence).padStart(SEQUENCE_DIGITS, '0')}.json`;
}

/** S3 prefix under which an agent's retrieval-index segments live. */
export function indexPrefix(agent: AgentKey): string {
  return `index/${agent.tenantId}/${agent.agentId}/`;
}
