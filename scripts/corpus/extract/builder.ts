/**
 * The generator's workbench: a seeded clock and dice, paraphrase picking, and
 * the running ground truth (contacts, facts and tasks as they stand after
 * each event). Dates are phrased relative to the record's own time and the
 * truth holds the absolute date a reader would work out.
 */
import { mulberry32 } from '../random.js';
import { MONTH_NAMES } from '../calendar.js';
import type { CorpusRecord, ExpectedContact, ExpectedFact, ExpectedTask, ExtractionCorpus } from './types.js';

const DAY = 86_400_000;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

export interface Person {
  readonly key: string;
  readonly name: string;
  readonly aliases: readonly string[];
  readonly id?: string;
  organisation?: string;
  role?: string;
  history: { at: string; organisation?: string; role?: string }[];
  /** Grammatical pronoun for clauses that describe them. */
  readonly pronoun: 'he' | 'she' | 'they';
}

export class CorpusBuilder {
  readonly random: () => number;
  private clock: number;
  private readonly records: CorpusRecord[] = [];
  private readonly people = new Map<string, Person>();
  /** People that count as contacts in the truth (mentioned or speaking). */
  private readonly known = new Set<string>();
  private readonly facts = new Map<string, ExpectedFact>();
  private readonly tasks = new Map<string, ExpectedTask>();

  constructor(seed: number, start: string, private readonly prefix: string) {
    this.random = mulberry32(seed);
    this.clock = Date.parse(start);
  }

  pick<T>(options: readonly T[]): T {
    return options[Math.floor(this.random() * options.length)]!;
  }

  chance(p: number): boolean {
    return this.random() < p;
  }

  /** Moves the clock on by minutes (and a little jitter). */
  wait(minutes: number): void {
    this.clock += Math.round(minutes * 60_000 * (0.8 + this.random() * 0.4));
  }

  waitDays(days: number): void {
    const next = new Date(this.clock + days * DAY);
    next.setUTCHours(8 + Math.floor(this.random() * 9), Math.floor(this.random() * 60), 0, 0);
    this.clock = next.getTime();
  }

  now(): Date {
    return new Date(this.clock);
  }

  person(person: Omit<Person, 'history'> & { history?: Person['history'] }): Person {
    const created: Person = { ...person, history: person.history ?? [] };
    this.people.set(person.key, created);
    return created;
  }

  /** The person now counts as a contact in the truth. */
  know(person: Person): void {
    this.known.add(person.key);
  }

  /** A job or organisation (re)stated for a person from now on. */
  employ(person: Person, change: { organisation?: string; role?: string }): void {
    if (change.organisation !== undefined) person.organisation = change.organisation;
    if (change.role !== undefined) person.role = change.role;
    person.history.push({ at: this.now().toISOString(), organisation: person.organisation, role: person.role });
    this.know(person);
  }

  say(record: Omit<CorpusRecord, 'id' | 'sequence' | 'timestamp' | 'type'> & { type?: CorpusRecord['type'] }): CorpusRecord {
    const sequence = this.records.length + 1;
    const created: CorpusRecord = { type: 'message', ...record, content: record.content.replace(/\.\.$/, '.'), id: `${this.prefix}-${sequence}`, sequence, timestamp: this.now().toISOString() };
    this.records.push(created);
    this.wait(1 + this.random() * 6);
    return created;
  }

  setFact(subject: string, attribute: string, value: string): void {
    this.facts.set(`${subject}\u0000${attribute}`, { subject, attribute, value });
  }

  fact(subject: string, attribute: string): ExpectedFact | undefined {
    return this.facts.get(`${subject}\u0000${attribute}`);
  }

  openTask(key: string, task: Omit<ExpectedTask, 'state'>): void {
    this.tasks.set(key, { ...task, state: 'open' });
  }

  closeTask(key: string, state: 'done' | 'cancelled'): void {
    const task = this.tasks.get(key);
    if (!task) throw new Error(`no task ${key}`);
    this.tasks.set(key, { ...task, state });
  }

  taskState(key: string): ExpectedTask['state'] | undefined {
    return this.tasks.get(key)?.state;
  }

  build(name: string, style: string): ExtractionCorpus {
    const contacts: ExpectedContact[] = [...this.known].map((key) => {
      const p = this.people.get(key)!;
      return {
        name: p.name,
        aliases: p.aliases,
        ...(p.id ? { id: p.id } : {}),
        ...(p.organisation ? { organisation: p.organisation } : {}),
        ...(p.role ? { role: p.role } : {}),
        history: p.history,
      };
    });
    const people = Object.fromEntries([...this.people.values()].map((p) => [p.key, [p.key, ...(p.id ? [p.id] : []), p.name, ...p.aliases]]));
    return { name, style, records: this.records, truth: { contacts, facts: [...this.facts.values()], tasks: [...this.tasks.values()], people } };
  }

  // --- dates --------------------------------------------------------------

  /** A future date a few days to weeks ahead, phrased one of several ways relative to now; returns [phrase, ISO date]. */
  futureDate(options: { allowRelative?: boolean } = {}): [string, string] {
    const today = new Date(Date.UTC(this.now().getUTCFullYear(), this.now().getUTCMonth(), this.now().getUTCDate()));
    const style = this.pick(options.allowRelative === false ? ['ordinal', 'month-day', 'day-month'] : ['ordinal', 'month-day', 'day-month', 'weekday', 'in-weeks', 'tomorrow', 'in-days']);
    const iso = (d: Date) => d.toISOString().slice(0, 10);
    switch (style) {
      case 'tomorrow': {
        const d = new Date(today.getTime() + DAY);
        return [this.pick(['tomorrow', 'tomorrow morning', 'tomorrow afternoon']), iso(d)];
      }
      case 'in-days': {
        const n = 2 + Math.floor(this.random() * 4);
        const words = ['', '', 'two', 'three', 'four', 'five'];
        return [this.pick([`in ${words[n]} days`, `in ${n} days`]), iso(new Date(today.getTime() + n * DAY))];
      }
      case 'in-weeks': {
        const n = 1 + Math.floor(this.random() * 3);
        const phrase = n === 1 ? this.pick(['in a week', 'in one week', 'a week from today']) : this.pick([`in ${['', '', 'two', 'three'][n]} weeks`, `in ${n} weeks`]);
        return [phrase, iso(new Date(today.getTime() + n * 7 * DAY))];
      }
      case 'weekday': {
        const ahead = 2 + Math.floor(this.random() * 5); // 2..6 days ahead: "next X" / "on X" both mean this one
        const d = new Date(today.getTime() + ahead * DAY);
        const name = WEEKDAYS[d.getUTCDay()]!;
        return [this.pick([`on ${name}`, `this ${name}`, `on ${name}`]), iso(d)];
      }
      default: {
        const ahead = 3 + Math.floor(this.random() * 25);
        const d = new Date(today.getTime() + ahead * DAY);
        const day = d.getUTCDate();
        const month = MONTH_NAMES[d.getUTCMonth()]!;
        const ord = ordinal(day);
        const phrase =
          style === 'ordinal' ? (d.getUTCMonth() === today.getUTCMonth() || ahead < 20 ? `on the ${ord}` : `on the ${ord} of ${month}`)
          : style === 'month-day' ? this.pick([`on ${month} ${day}`, `on ${month} ${ord}`, `on ${month.slice(0, 3)} ${day}`])
          : this.pick([`on ${day} ${month}`, `on the ${ord} of ${month}`]);
        return [phrase, iso(d)];
      }
    }
  }

  /** Another day near `iso` in the same month, phrased as a bare ordinal ("the 14th"). */
  nearbyDay(iso: string): [string, string] {
    const base = new Date(`${iso}T00:00:00Z`);
    let shift = this.pick([-3, -2, -1, 1, 2, 3, 4]);
    let d = new Date(base.getTime() + shift * DAY);
    if (d.getUTCMonth() !== base.getUTCMonth() || d.getTime() <= this.now().getTime()) {
      shift = -shift;
      d = new Date(base.getTime() + shift * DAY);
    }
    // Never a corrected date in the past: move later instead (even into the next month).
    if (d.getTime() <= this.now().getTime()) d = new Date(base.getTime() + Math.abs(shift) * DAY);
    return [`the ${ordinal(d.getUTCDate())}`, d.toISOString().slice(0, 10)];
  }
}

export function ordinal(day: number): string {
  const suffix = day % 100 >= 11 && day % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd', 'th', 'th', 'th', 'th', 'th', 'th'][day % 10];
  return `${day}${suffix}`;
}

/** Capitalises the first letter of a sentence. */
export function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Fills `{name}`-style slots. */
export function fill(template: string, slots: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = slots[key];
    if (value === undefined) throw new Error(`template slot {${key}} has no value in "${template}"`);
    return value;
  });
}
