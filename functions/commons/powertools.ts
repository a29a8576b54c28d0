/** One logger and one metrics instance per process, shared by every handler. */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';

export const serviceName = 'agent-memory';
export const logger = new Logger({ serviceName });
export const metrics = new Metrics({ serviceName, namespace: 'AgentMemory' });
