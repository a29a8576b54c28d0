import { it } from 'vitest';
import { extractContacts } from '../../functions/adapters/models/local/contacts.js';
it('p', () => {
  const records = [{ id: 'r1', sequence: 1, type: 'message', role: 'user', content: 'Good night, love. And be yourself at that interview — Helen Ashdown likes people who ask questions.', timestamp: '2025-06-02T10:00:00Z' }];
  console.log(JSON.stringify(extractContacts({ updater: 'contacts', records, existing: [], tables: [] } as never).ops));
});
