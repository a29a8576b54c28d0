/** Lambda entry: feedback on items and batch reverts (the note lifecycle's write side). */
import { createFeedbackHandler } from './http/feedback-route.js';
import { serviceRuntime } from '../commons/runtime.js';

const runtime = serviceRuntime();

export const handler = createFeedbackHandler({
  memory: runtime.memory,
  injections: runtime.injections,
  snapshot: runtime.snapshot,
});
