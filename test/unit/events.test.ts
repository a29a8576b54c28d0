import { describe, expect, it } from 'vitest';
import { contentHash, parseAgentId, parseIngestRequest } from '../../functions/domain/events.js';
import { ValidationError } from '../../functions/domain/errors.js';

const valid = { id: 'D1:3', type: 'message', role: 'user', content: 'Hello there', timestamp: '2023-05-08T13:56:00Z' };

function issuesOf(body: unknown) {
  try {
    parseIngestRequest(body);
  } catch (error) {
    if (error instanceof ValidationError) return error.issues;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('parseIngestRequest', () => {
  it('accepts a valid event with every optional field', () => {
    const event = {
      ...valid,
      interactionId: 'call-7',
      contact: { id: 'c-1', name: 'Ada Lovelace' },
      metadata: { channel: 'email', tags: ['x'] },
    };

    expect(parseIngestRequest({ events: [event] })).toEqual([event]);
  });

  it('accepts an event without a timestamp (the server supplies it)', () => {
    const { timestamp: _omitted, ...event } = valid;

    expect(parseIngestRequest({ events: [event] })[0]!.timestamp).toBeUndefined();
  });

  it('names each offending field and the rule it broke', () => {
    const issues = issuesOf({
      events: [
        { ...valid, type: 'mesage' },
        { ...valid, id: 'b', role: 'bot', content: '   ' },
        { ...valid, id: 'c', timestamp: 'yesterday' },
      ],
    });

    expect(issues).toEqual([
      { field: 'events[0].type', rule: 'must be one of message, action' },
      { field: 'events[1].role', rule: 'must be one of user, assistant, tool, system' },
      { field: 'events[1].content', rule: 'must be non-empty text' },
      { field: 'events[2].timestamp', rule: expect.stringContaining('ISO 8601') },
    ]);
  });

  it('reports missing required fields as required', () => {
    const issues = issuesOf({ events: [{}] });

    expect(issues.map((issue) => issue.field)).toEqual(['events[0].id', 'events[0].type', 'events[0].role', 'events[0].content']);
    expect(new Set(issues.map((issue) => issue.rule))).toEqual(new Set(['is required']));
  });

  it('rejects wrongly typed values', () => {
    const issues = issuesOf({ events: [{ ...valid, content: 42, metadata: 'x', contact: {} }] });

    expect(issues).toEqual([
      { field: 'events[0].content', rule: 'must be a string' },
      { field: 'events[0].contact', rule: 'must have an id or a name' },
      { field: 'events[0].metadata', rule: 'must be a JSON object' },
    ]);
  });

  it('rejects unknown fields, so typos are not silently dropped', () => {
    expect(issuesOf({ events: [{ ...valid, contnet: 'x' }] })).toEqual([
      { field: 'events[0]', rule: 'unknown field(s): contnet' },
    ]);
  });

  it('requires 1 to 100 events', () => {
    expect(issuesOf({ events: [] })).toEqual([{ field: 'events', rule: 'must hold at least 1 event' }]);
    const many = Array.from({ length: 101 }, (_, i) => ({ ...valid, id: `e${i}` }));
    expect(issuesOf({ events: many })).toEqual([{ field: 'events', rule: 'must hold at most 100 events' }]);
  });

  it('rejects a body that is not an object with an events array', () => {
    expect(issuesOf([valid])).toEqual([{ field: 'body', rule: 'must be a JSON object with an events array' }]);
    expect(issuesOf({})).toEqual([{ field: 'events', rule: 'is required' }]);
  });

  it('rejects event ids with spaces, control characters or more than 128 characters', () => {
    const issues = issuesOf({
      events: [
        { ...valid, id: 'has space' },
        { ...valid, id: 'x'.repeat(129) },
        { ...valid, id: 'tab\t' },
      ],
    });

    expect(issues.map((issue) => issue.field)).toEqual(['events[0].id', 'events[1].id', 'events[2].id']);
  });

  it('rejects an id repeated within one request', () => {
    expect(issuesOf({ events: [valid, { ...valid, content: 'other' }] })).toEqual([
      { field: 'events[1].id', rule: 'must be unique in the request; repeats events[0].id' },
    ]);
  });

  it('rejects oversized content and metadata', () => {
    const issues = issuesOf({
      events: [
        { ...valid, content: 'x'.repeat(32_769) },
        { ...valid, id: 'b', metadata: { blob: 'y'.repeat(9_000) } },
      ],
    });

    expect(issues.map((issue) => issue.field)).toEqual(['events[0].content', 'events[1].metadata']);
  });
});

describe('parseAgentId', () => {
  it('accepts letters, digits, dot, underscore and dash', () => {
    expect(parseAgentId('agent_01.prod-eu')).toBe('agent_01.prod-eu');
  });

  it.each(['', '-leading', 'has space', 'a/b', 'x'.repeat(65), undefined])('rejects %j', (agentId) => {
    expect(() => parseAgentId(agentId)).toThrow(ValidationError);
  });
});

describe('contentHash', () => {
  it('does not depend on key order', () => {
    const reordered = { timestamp: valid.timestamp, content: valid.content, role: 'user', type: 'message', id: valid.id } as const;

    expect(contentHash(reordered)).toBe(contentHash(valid as never));
  });

  it('changes when the content changes', () => {
    expect(contentHash({ ...valid, content: 'Hello there!' } as never)).not.toBe(contentHash(valid as never));
  });

  it('does not change when only the server-filled timestamp differs (a re-stamped retry)', () => {
    const { timestamp: _timestamp, ...unstamped } = valid as Record<string, unknown>;

    expect(contentHash({ ...valid, timestamp: '2030-01-01T00:00:00Z' } as never)).toBe(contentHash(valid as never));
    expect(contentHash(unstamped as never)).toBe(contentHash(valid as never));
  });
});
