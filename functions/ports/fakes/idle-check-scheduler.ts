/** In-memory idle-check scheduler: records each check with its delay, clamped to what SQS allows (0 to 900 seconds). */
import type { IdleCheck, IdleCheckScheduler } from '../pipeline.js';
import { stored } from './storage.js';

export interface ScheduledIdleCheck {
  readonly check: IdleCheck;
  readonly delaySeconds: number;
}

export class InMemoryIdleCheckScheduler implements IdleCheckScheduler {
  readonly scheduled: ScheduledIdleCheck[] = [];

  async schedule(check: IdleCheck, delaySeconds: number): Promise<void> {
    this.scheduled.push({ check: stored(check), delaySeconds: Math.max(0, Math.min(900, Math.round(delaySeconds))) });
  }

  /** Receives (and removes) every scheduled check, in the order scheduled. */
  receiveAll(): ScheduledIdleCheck[] {
    return this.scheduled.splice(0, this.scheduled.length);
  }
}
