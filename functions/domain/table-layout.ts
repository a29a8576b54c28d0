/**
 * Names the stack and the adapters share: the sweep index of the summaries
 * table and how many shards it spreads agents over. Declared once here so the
 * CDK stack need not import an adapter.
 */
export const SWEEP_INDEX = 'sweep';
export const SWEEP_SHARDS = 8;
