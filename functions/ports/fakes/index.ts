/**
 * In-memory fakes of the ports, for fast unit tests of use cases and
 * handlers. Each honours its port's documented semantics (conditional and
 * atomic writes, write-once markers, version checks, page tokens) the way
 * its AWS adapter does; anything that crosses a service boundary is still
 * tested against the emulator.
 */
export { InMemoryAgentLedger } from './agent-ledger.js';
export { InMemoryRawLog } from './raw-log.js';
export { InMemoryBatchQueue } from './batch-queue.js';
export { InMemoryIdleCheckScheduler, type ScheduledIdleCheck } from './idle-check-scheduler.js';
export { InMemoryMemoryStore } from './memory-store.js';
export { InMemorySummaryStore, type SummaryInserted } from './summary-store.js';
export { InMemorySnapshotStore } from './snapshot-store.js';
export { InMemoryInjectionLog } from './injection-log.js';
export { ScriptedModel, type ModelScript, type ScriptedModelOptions } from './model.js';
export { failNextCalls } from './faults.js';
export { ConditionFailedError } from './storage.js';
export { HashingEmbeddings } from './embeddings.js';
