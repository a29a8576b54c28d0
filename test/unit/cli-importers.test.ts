/** What the CLI's import reads: chat exports, JSON Lines and LoCoMo-style corpora become events with stable ids. */
import { describe, expect, it } from 'vitest';
import { ImportError, detectFormat, parseChat, parseInterval, parseJsonLines, parseLocomo } from '../../clients/cli/importers.js';
import { withEventIds } from '../../clients/typescript/src/index.js';

describe('chat exports', () => {
  const chat = 'Ana: hello there\nBot: hi Ana\n\n  it is a fine day\nAna: ok\nAna: ok\n';

  it('makes one message per speaker line, dated from the start at the interval; unprefixed lines continue the previous message', () => {
    const events = parseChat(chat, { start: '2026-11-02T09:00:00Z', intervalMs: 60_000, assistants: ['bot'] });
    expect(events.map((event) => [event.role, event.content, event.timestamp])).toEqual([
      ['user', 'Ana: hello there', '2026-11-02T09:00:00.000Z'],
      ['assistant', 'Bot: hi Ana\nit is a fine day', '2026-11-02T09:01:00.000Z'],
      ['user', 'Ana: ok', '2026-11-02T09:02:00.000Z'],
      ['user', 'Ana: ok', '2026-11-02T09:03:00.000Z'],
    ]);
    expect(events[0]!.metadata).toEqual({ speaker: 'Ana' });
  });

  it('gives the same ids on every import of the same file, so a re-run is recognised', () => {
    const once = withEventIds(parseChat(chat, { start: '2026-11-02T09:00:00Z', intervalMs: 1_000 })).map((event) => event.id);
    const twice = withEventIds(parseChat(chat, { start: '2026-11-02T09:00:00Z', intervalMs: 1_000 })).map((event) => event.id);
    expect(twice).toEqual(once);
    expect(new Set(once).size).toBe(once.length);
  });

  it('refuses a start that is not an ISO date-time and a first line without a speaker', () => {
    expect(() => parseChat(chat, { start: 'yesterday', intervalMs: 1 })).toThrow(ImportError);
    expect(() => parseChat('no speaker here', { start: '2026-11-02T09:00:00Z', intervalMs: 1 })).toThrow(/line 1: must be "speaker: text"/);
  });

  it('reads intervals with units', () => {
    expect([parseInterval('30s'), parseInterval('2m'), parseInterval('1h'), parseInterval('500ms'), parseInterval('5')]).toEqual([30_000, 120_000, 3_600_000, 500, 5_000]);
    expect(() => parseInterval('soon')).toThrow(ImportError);
  });
});

describe('JSON Lines and corpora', () => {
  it('reads one event per line, naming a bad line', () => {
    const events = parseJsonLines('{"id":"a","type":"message","role":"user","content":"hi"}\n\n{"content":"there","timestamp":"2026-11-02T09:00:00Z"}\n');
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({ type: 'message', role: 'user', content: 'there' });
    expect(() => parseJsonLines('{"content":"ok"}\nnot json')).toThrow('line 2: not valid JSON');
  });

  it('reads a LoCoMo-style corpus with the evaluation parser, one agent per sample', () => {
    const corpus = [
      { sample_id: 'conv-1', conversation: { speaker_a: 'Ann', speaker_b: 'Bo', session_1_date_time: '1:56 pm on 8 May, 2023', session_1: [{ speaker: 'Ann', dia_id: 'D1:1', text: 'I adopted a cat.' }, { speaker: 'Bo', dia_id: 'D1:2', text: 'Lovely!' }] }, qa: [] },
    ];
    const [batch] = parseLocomo(JSON.stringify(corpus));
    expect(batch!.agentId).toBe('conv-1');
    expect(batch!.events.map((event) => event.id)).toEqual(['D1:1', 'D1:2']);
    expect(parseLocomo(JSON.stringify(corpus), 'mine')[0]!.agentId).toBe('mine');
    expect(() => parseLocomo(JSON.stringify([{ conversation: {} }]))).toThrow(ImportError);
  });

  it('tells formats apart by extension, then by content', () => {
    expect(detectFormat('a.jsonl', '')).toBe('jsonl');
    expect(detectFormat('a.json', '')).toBe('locomo');
    expect(detectFormat('a.txt', 'Ana: hi')).toBe('chat');
    expect(detectFormat('a.txt', '{"content":"a"}\n{"content":"b"}')).toBe('jsonl');
  });
});
