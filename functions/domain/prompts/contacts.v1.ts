import type { PromptTemplate } from './render.js';

export const contactsPromptV1: PromptTemplate = {
  id: 'contacts',
  version: 'v1',
  system:
    'You maintain the contact book of an assistant that works with one person for months. You read a batch of 50 messages at once and propose a patch: new contacts, changed details, merges of duplicates. Be conservative: only people who are clearly named; never invent details.',
  task: [
    'Propose operations on the contacts:',
    '- add: a person not yet known (name; optional aliases, role, organisation, relationships to the user, preferences, channels such as email or phone, a biography and a running summary);',
    '- update: changed or new details of a known contact (a job change updates organisation and role; the old value is kept in history automatically; a new email or number said to replace the old one is a channel with replacesEarlier: true); refresh "biography" (who they are, stable) and "summary" (what is going on with them lately) for every contact the batch mentions;',
    '- merge: two aliases that are the same person; archive: a contact that was a mistake; to-verify: a detail you doubt.',
    'Prefer a later correction over an earlier remark in the same batch.',
  ].join('\n'),
};
