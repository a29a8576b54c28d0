/** The files the sequencer starts first exist (a renamed file would silently lose its place). */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LONGEST_FILES } from '../support/sequencer.js';

describe('the test sequencer', () => {
  it('names only test files that exist', () => {
    expect(LONGEST_FILES.filter((file) => !existsSync(file))).toEqual([]);
  });
});
