/**
 * Deterministic, uneven activity over a long period: burst days (tens of
 * messages in a few interactions), then days or weeks of silence. Seeded, so
 * tests and benchmarks see the same history every run.
 */
import { mulberry32 } from './random.js';

export interface SimulatedEvent {
  readonly id: string;
  readonly type: 'message';
  readonly role: 'user' | 'assistant';
  readonly content: string;
  readonly timestamp: string;
  readonly interactionId: string;
}

export interface HistoryOptions {
  readonly start: string;
  readonly days: number;
  readonly seed?: number;
  /** Messages on a burst day. @default 40 */
  readonly burstSize?: number;
}

const PEOPLE = ['Dana Whitfield', 'Marco Rossi', 'Priya Natarajan', 'Omar Haddad', 'Elena Petrova', 'Tom Baker'];
const TOPICS = ['the quarterly report', 'the Lisbon offsite', 'the pricing page', 'the hiring plan', 'the vendor contract', 'the product launch'];
const LINES = [
  (p: string, t: string) => `I met ${p} to discuss ${t}.`,
  (p: string, t: string) => `Remind me to send ${t} to ${p} by Friday.`,
  (p: string, t: string) => `${p} agreed to review ${t} next week.`,
  (_: string, t: string) => `We decided to postpone ${t} until the spring.`,
  (p: string) => `${p} joined Globex as head of sales.`,
  () => 'ok, thanks',
  () => 'sounds good',
  (_: string, t: string) => `I finished ${t}.`,
];

export function simulatedHistory(options: HistoryOptions): SimulatedEvent[] {
  const random = mulberry32(options.seed ?? 7);
  const burstSize = options.burstSize ?? 40;
  const start = Date.parse(`${options.start}T00:00:00Z`);
  const events: SimulatedEvent[] = [];
  let day = 0;
  while (day < options.days) {
    // A burst day: 2 to 5 interactions, an hour apart, sharing the day's messages.
    const interactions = 2 + Math.floor(random() * 4);
    const perInteraction = Math.ceil(burstSize / interactions);
    for (let k = 0; k < interactions; k += 1) {
      const interactionId = `d${day}-i${k}`;
      for (let m = 0; m < perInteraction && events.length < Number.MAX_SAFE_INTEGER; m += 1) {
        const person = PEOPLE[Math.floor(random() * PEOPLE.length)]!;
        const topic = TOPICS[Math.floor(random() * TOPICS.length)]!;
        const line = LINES[Math.floor(random() * LINES.length)]!;
        events.push({
          id: `H${events.length + 1}`,
          type: 'message',
          role: m % 2 === 0 ? 'user' : 'assistant',
          content: line(person, topic),
          timestamp: new Date(start + day * 86_400_000 + (9 + k) * 3_600_000 + m * 60_000).toISOString(),
          interactionId,
        });
      }
    }
    // Then silence: mostly a few days, sometimes weeks.
    day += 1 + (random() < 0.25 ? 7 + Math.floor(random() * 28) : Math.floor(random() * 6));
  }
  return events;
}
