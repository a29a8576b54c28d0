/**
 * Which of a store's items one batch's prompt shows the model. Every item
 * costs input tokens on every call, and what a batch can change is what it
 * talks about: the items its records name (a contact's name, alias,
 * organisation or relation; a fact's subject, attribute or value; a task's
 * title), every open task (a report of the deed closes it in words of its
 * own), and the few most recently reinforced items (what "she" or "it" most
 * likely means). Matching a new value to what the store holds does not depend
 * on this: the patch matches by key or name against the whole store.
 */
import type { MemoryItem } from './memory.js';
import { indexTerms } from './terms.js';

/** Items shown whatever the records say, most recently reinforced first. */
export const RECENT_ITEMS_IN_PROMPT = 12;

const SELF = new Set(['user', 'assistant', 'me', 'i']);

/** The words that name an item: what a record must say for the item to be in play. */
function keyTerms(item: MemoryItem): readonly string[] {
  switch (item.kind) {
    case 'contact':
      return indexTerms([item.name, ...item.aliases, item.organisation ?? '', ...item.relationships.map((r) => r.type)].join(' '));
    case 'fact':
      return indexTerms(
        Object.entries(item.row)
          .filter(([column, value]) => value && !(column === 'subject' && SELF.has(String(value).toLowerCase())) && !/^(polarity|date)$/.test(column))
          .map(([, value]) => String(value))
          .join(' '),
      );
    case 'task':
      return indexTerms(item.title);
  }
}

/**
 * The items to show, at most `limit`: those the records name and the open
 * tasks (most recently reinforced first), then the most recent others up to
 * `RECENT_ITEMS_IN_PROMPT`. Archived items are never shown.
 */
export function itemsForPrompt(items: readonly MemoryItem[], recordTexts: readonly string[], limit: number): MemoryItem[] {
  const said = new Set(indexTerms(recordTexts.join('\n')));
  const live = items.filter((item) => item.status !== 'archived').sort((a, b) => b.lastReinforcedAt.localeCompare(a.lastReinforcedAt));
  const named = live.filter((item) => {
    if (item.kind === 'task' && item.state === 'open') return true;
    const terms = keyTerms(item);
    const hits = terms.filter((term) => said.has(term)).length;
    // A closed task's title shares common words with much: two of them, or all of a short one.
    return item.kind === 'task' ? hits >= Math.min(2, terms.length) && hits > 0 : hits > 0;
  });
  const shown = new Set(named.slice(0, limit));
  for (const item of live) {
    if (shown.size >= Math.min(limit, named.length + RECENT_ITEMS_IN_PROMPT)) break;
    shown.add(item);
  }
  return live.filter((item) => shown.has(item));
}
