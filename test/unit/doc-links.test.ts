/** The README is a door: every page it and the docs link to exists. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`), ...readdirSync(join(root, 'docs', 'design')).map((f) => `docs/design/${f}`)];

describe('documentation links', () => {
  it.each(pages)('%s links only to files that exist', (page) => {
    const text = readFileSync(join(root, page), 'utf8').replace(/```[\s\S]*?```/g, '');
    const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^(?:https?:|mailto:|#)/.test(t));
    const missing = targets.filter((target) => !existsSync(join(root, dirname(page), target.split('#')[0]!)));
    expect(missing).toEqual([]);
  });
});
