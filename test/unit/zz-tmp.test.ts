import { it } from 'vitest';
import { extractContacts } from '../../functions/adapters/models/local/contacts.js';
it('p', async () => {
  const records = [
    { id: 'r1', role: 'user', content: "Mick rang on Monday. He's moving to Whitby to be near his son Alfie. The flat is going up for sale and he's gone by the end of September.", timestamp: '2025-06-02T10:00:00Z', metadata: { speaker: 'Ros' } },
    { id: 'r2', role: 'user', content: "Happy New Year, all! So you're Tamsin, I hear you fly helicopters.", timestamp: '2025-06-03T10:00:00Z', metadata: { speaker: 'Ros' } },
  ];
  console.log(JSON.stringify(await extractContacts({ records, existing: [] } as never), null, 0).slice(0, 1500));
});
