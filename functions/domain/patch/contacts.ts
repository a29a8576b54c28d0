/** Contact operations: add (a known name or alias updates), update, merge; a tool record alone only proposes. */
import { initialStanding, isIndependentRecord } from '../verification.js';
import type { ContactItem, ContactOp, Evidence, FieldChange } from '../memory.js';
import { itemId, PatchState, baseItem, reinforce, change, onlyFromTools, propose, normalise, mergeItems } from './common.js';

function findContact(state: PatchState, name: string): ContactItem | undefined {
  const wanted = normalise(name);
  return state
    .active()
    .filter((item): item is ContactItem => item.kind === 'contact')
    .find((contact) => normalise(contact.name) === wanted || contact.aliases.some((alias) => normalise(alias) === wanted));
}

type ContactFields = Extract<ContactOp, { op: 'update' }>['changes'];

function updateContact(state: PatchState, contact: ContactItem, fields: ContactFields, evidence: Evidence[]): ContactItem {
  const identity = Object.fromEntries((['name', 'role', 'organisation'] as const).filter((f) => fields[f] !== undefined && fields[f] !== contact[f]).map((f) => [f, fields[f]]));
  if (onlyFromTools(evidence) && Object.keys(identity).length > 0) {
    // Who someone is and where they work changes on a person's word, not a tool's text alone.
    const { name: _n, role: _r, organisation: _o, ...rest } = fields;
    return propose(state, updateContact(state, contact, rest, evidence), identity, evidence);
  }
  let next = reinforce(state, contact, evidence);
  if (next.proposedChange && !onlyFromTools(evidence)) {
    const { proposedChange: _p, ...settled } = next;
    next = { ...settled, ...(next.note?.startsWith('to verify: a tool record') ? { note: undefined } : {}) } as ContactItem;
  }
  const history = [...next.history];
  for (const field of ['name', 'role', 'organisation'] as const) {
    const value = fields[field];
    if (value !== undefined && value !== next[field]) {
      history.push(change(state, field, next[field], value, evidence));
      next = { ...next, [field]: value };
      if (field === 'name' && !next.aliases.includes(contact.name)) next = { ...next, aliases: [...next.aliases, contact.name] };
    }
  }
  const channels = mergeChannels(state, next.channels, fields.channels, evidence, history);
  const union = <T>(a: readonly T[], b: readonly T[] | undefined, key: (v: T) => string) => {
    const seen = new Map(a.map((v) => [key(v), v]));
    for (const v of b ?? []) if (!seen.has(key(v))) seen.set(key(v), v);
    return [...seen.values()];
  };
  next = {
    ...next,
    aliases: union(next.aliases, fields.aliases, normalise).filter((alias) => normalise(alias) !== normalise(next.name)),
    preferences: union(next.preferences, fields.preferences, normalise),
    channels,
    relationships: union(next.relationships, fields.relationships, (r) => `${normalise(r.type)}:${normalise(r.to)}`),
    ...(fields.biography !== undefined ? { biography: fields.biography } : {}),
    ...(fields.summary !== undefined ? { summary: fields.summary } : {}),
    lastMentionedAt: evidence.reduce((latest, e) => (e.timestamp > latest ? e.timestamp : latest), next.lastMentionedAt),
    history,
  };
  // A refuted contact waits for its replacement: a new record giving it a new role, employer or name
  // is that replacement, so the contact is shown again, unverified, with the new value.
  const replaced = history.length > contact.history.length && history.slice(contact.history.length).some((c) => c.field !== 'verification');
  if (contact.verification === 'refuted' && replaced && evidence.some((e) => isIndependentRecord(contact, e))) {
    next = { ...next, ...initialStanding(0.7), note: 'replaces a value refuted by feedback', history: [...next.history, change(state, 'verification', 'refuted', 'unverified', evidence)] };
  }
  return next;
}

type Channel = ContactItem['channels'][number];
const channelKey = (c: Channel) => `${c.type}:${c.value.toLowerCase()}`;

/**
 * The channels after `incoming`, in the order given: one said to replace the earlier ones ("my new
 * number is ...") sends those of its type known before it, earlier in the same op too, to `history`
 * (from which they are marked where records still state them); others are added beside them.
 */
function mergeChannels(state: PatchState, held: readonly Channel[], incoming: ContactFields['channels'], evidence: Evidence[], history: FieldChange[]): Channel[] {
  let channels = [...held];
  for (const channel of incoming ?? []) {
    if (channel.replacesEarlier) {
      const earlier = channels.filter((c) => c.type === channel.type && channelKey(c) !== channelKey(channel));
      for (const old of earlier) history.push(change(state, 'channels', old.value, channel.value, evidence));
      channels = channels.filter((c) => !earlier.includes(c));
    }
    if (!channels.some((c) => channelKey(c) === channelKey(channel))) channels.push({ type: channel.type, value: channel.value });
  }
  return channels;
}

export function applyContactOp(state: PatchState, op: ContactOp, index: number): void {
  const evidence = state.evidence(op.evidence);
  switch (op.op) {
    case 'add': {
      const existing = findContact(state, op.contact.name) ?? op.contact.aliases?.map((alias) => findContact(state, alias)).find(Boolean);
      if (existing) {
        state.remember(op.ref, existing.id);
        state.put(updateContact(state, existing, { ...op.contact, name: existing.name, aliases: [...(op.contact.aliases ?? []), ...(normalise(op.contact.name) !== normalise(existing.name) ? [op.contact.name] : [])] }, evidence));
        return;
      }
      const id = itemId('contacts', state.context.scope, state.context.batch, index, normalise(op.contact.name));
      const replaced: FieldChange[] = [];
      const created: ContactItem = {
        ...baseItem(state, id, evidence, { ...state.context.scope, contactId: id }),
        kind: 'contact',
        name: op.contact.name,
        aliases: op.contact.aliases ?? [],
        ...(op.contact.role ? { role: op.contact.role } : {}),
        ...(op.contact.organisation ? { organisation: op.contact.organisation } : {}),
        relationships: op.contact.relationships ?? [],
        preferences: op.contact.preferences ?? [],
        channels: mergeChannels(state, [], op.contact.channels, evidence, replaced),
        biography: op.contact.biography ?? '',
        summary: op.contact.summary ?? '',
        lastMentionedAt: evidence.reduce((latest, e) => (e.timestamp > latest ? e.timestamp : latest), ''),
        history: replaced,
      };
      state.remember(op.ref, id);
      state.put(created);
      return;
    }
    case 'update': {
      const contact = state.resolve(op.target) as ContactItem;
      state.put(updateContact(state, contact, op.changes, evidence));
      return;
    }
    case 'merge':
      return mergeItems(state, op.targets, evidence, (survivor, other) => {
        const absorbed = other as ContactItem;
        return updateContact(state, survivor as ContactItem, {
          aliases: [absorbed.name, ...absorbed.aliases],
          relationships: [...absorbed.relationships],
          preferences: [...absorbed.preferences],
          channels: [...absorbed.channels],
        }, []);
      });
  }
}
