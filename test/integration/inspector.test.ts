/**
 * The web inspector in a real headless Chromium (Debian's, driven by
 * playwright-core) against the local stack: it loads a replayed agent, each
 * view shows what the API holds, it works from the keyboard, and markup in
 * remembered text is shown as text, never run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryClient, createMemoryClient } from '../../clients/typescript/src/index.js';
import type { LocalStack } from '../../local/local-stack.js';
import { scriptedConversation } from '../../scripts/corpus/scripted-conversation.js';
import { TEST_API_KEY, startTestStack } from '../support/local-stack.js';
import { waitFor } from '../support/wait.js';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];
/** Set to a folder (e.g. docs/inspector) to save a screenshot of each view. */
const SCREENSHOTS = process.env.INSPECTOR_SCREENSHOTS;
const MARKUP = 'Remind me to email <b>Priya</b> the <img src=x onerror="window.__injected=1"> notes by Friday.';

let stack: LocalStack;
let memory: MemoryClient;
let browser: Browser;
let page: Page;
const agentId = 'inspected';
/** The part of a DOM element the assertions read (the test type-checks without the DOM library). */
type Dom = { dataset: Record<string, string> };

/** Installs Debian's chromium when missing, as CI does (needs root). */
function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  const run = spawnSync('sh', ['-c', 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium'], { stdio: 'inherit', timeout: 900_000 });
  if (run.status !== 0 || !existsSync(CHROMIUM)) throw new Error('could not install chromium (apt-get install -y chromium, as root)');
}

async function open(view: string): Promise<void> {
  await page.goto(`${stack.url}/inspector/#agent=${agentId}&view=${view}`);
  await page.waitForSelector(`#view[data-view="${view}"][aria-busy="false"]`);
  // The recall view is saved once a question is answered (its test does).
  if (SCREENSHOTS && view !== 'recall') await page.screenshot({ path: `${SCREENSHOTS}/${view}.png`, fullPage: true });
}

const idsIn = (selector: string) => page.$$eval(selector, (nodes) => nodes.map((node) => (node as unknown as Dom).dataset.id!).sort());

beforeAll(async () => {
  ensureChromium();
  if (SCREENSHOTS) mkdirSync(SCREENSHOTS, { recursive: true });
  stack = await startTestStack();
  memory = createMemoryClient({ baseUrl: stack.url, apiKey: TEST_API_KEY });
  await memory.remember(agentId, [...scriptedConversation(100), { type: 'message', role: 'user', content: MARKUP, timestamp: '2026-12-01T09:00:00Z' }]);
  await memory.flush(agentId);
  await waitFor(async () => (await memory.status(agentId)).lastConsolidatedSequence >= 101, 120_000, 200);
  await memory.sweep(agentId);
  await stack.eventSources.waitForIdle(120_000);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript((key: string) => (globalThis as unknown as { sessionStorage: { setItem(k: string, v: string): void } }).sessionStorage.setItem('agent-memory-key', key), TEST_API_KEY);
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('the web inspector', () => {
  it('shows every contact the API holds, with its details', async () => {
    const contacts = await MemoryClient.all(memory.contacts(agentId));
    expect(contacts.length).toBeGreaterThan(0);
    await open('contacts');
    expect(await idsIn('#view article[data-id]')).toEqual(contacts.map((contact) => contact.id).sort());
    const first = page.locator(`article[data-id="${contacts[0]!.id}"] h3`);
    expect(await first.textContent()).toContain(contacts[0]!.name);
  });

  it('shows facts grouped by table', async () => {
    const facts = await MemoryClient.all(memory.facts(agentId));
    await open('facts');
    expect(await idsIn('#view tr[data-id]')).toEqual(facts.map((fact) => fact.id).sort());
    const tables = await page.$$eval('#view section[data-table]', (nodes) => nodes.map((node) => (node as unknown as Dom).dataset.table).sort());
    expect(tables).toEqual([...new Set(facts.map((fact) => fact.table))].sort());
  });

  it('shows tasks open and closed', async () => {
    const tasks = await MemoryClient.all(memory.tasks(agentId));
    await open('tasks');
    const [open_, closed] = await page.$$eval('#view section', (sections) => sections.map((section) => [...section.querySelectorAll('tr[data-id]')].map((row) => (row as unknown as Dom).dataset.id!).sort()));
    expect(open_).toEqual(tasks.filter((task) => task.state === 'open').map((task) => task.id).sort());
    expect(closed).toEqual(tasks.filter((task) => task.state !== 'open').map((task) => task.id).sort());
  });

  it('shows both ladders as timelines that open level by level', async () => {
    const time = await MemoryClient.all(memory.summaries(agentId, 'time'));
    const count = await MemoryClient.all(memory.summaries(agentId, 'count'));
    expect(time.length + count.length).toBeGreaterThan(0);
    await open('ladders');
    expect(await idsIn('section[data-ladder="time"] details[data-id]')).toEqual(time.map((s) => s.id).sort());
    expect(await idsIn('section[data-ladder="count"] details[data-id]')).toEqual(count.map((s) => s.id).sort());
    const all = [...time, ...count];
    const stored = new Set(all.map((s) => s.id));
    const nested = new Set(all.flatMap((s) => s.children));
    // How many summaries list each child: a run of empty days may be the child of the week it starts in and of the
    // empty run above it, and is shown once, under whichever comes first; a child only one lists is always under it.
    const parents = new Map<string, number>();
    for (const id of all.flatMap((s) => s.children)) parents.set(id, (parents.get(id) ?? 0) + 1);
    const ownChild = (s: (typeof all)[number]) => s.children.find((id) => stored.has(id) && parents.get(id) === 1);
    // A top of a timeline (visible before anything is opened) with a level below it that is its own.
    const withChildren = all.find((s) => !nested.has(s.id) && ownChild(s) !== undefined);
    expect(withChildren).toBeDefined();
    const node = page.locator(`details[data-id="${withChildren!.id}"]`);
    await node.locator(':scope > summary').focus();
    await page.keyboard.press('Enter');
    expect(await node.getAttribute('open')).not.toBeNull();
    expect(await node.locator(`:scope > details[data-id="${ownChild(withChildren!)}"]`).isVisible()).toBe(true);
  });

  it('shows the audit of a batch as before/after pairs', async () => {
    const audit = await memory.audit(agentId, 1);
    await open('audit');
    await page.fill('#audit-batch', '1');
    await page.dispatchEvent('#audit-batch', 'change');
    await page.waitForSelector('#view section[data-updater]');
    const updaters = await page.$$eval('#view section[data-updater]', (nodes) => nodes.map((node) => (node as unknown as Dom).dataset.updater).sort());
    expect(updaters).toEqual(audit.entries.map((entry) => entry.updater).sort());
    expect(await page.locator('#view .diff').count()).toBe(audit.entries.reduce((sum, entry) => sum + entry.changes.length, 0));
  });

  it('shows freshness: how far consolidation lags', async () => {
    const status = await memory.status(agentId);
    await open('freshness');
    const text = await page.textContent('#freshness');
    expect(text).toContain(`Records ingested${status.lastSequence}`);
    expect(text).toContain(`Pending consolidation${status.lastSequence - status.lastConsolidatedSequence}`);
  });

  it('switches views from the keyboard', async () => {
    await open('contacts');
    await page.keyboard.press('3');
    await page.waitForSelector('#view[data-view="tasks"][aria-busy="false"]');
    await page.focus('[data-view="tasks"]');
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('#view[data-view="ladders"][aria-busy="false"]');
    expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { getAttribute(name: string): string | null } | null } }).document.activeElement?.getAttribute('data-view'))).toBe('ladders');
  });

  it('recalls a question as the agent gets it, each cited record opening with its speaker, time and batch, beside the injection-log entry', async () => {
    const question = 'Where does my sister live?';
    await open('recall');
    await page.fill('#recall-question', question);
    await page.fill('#recall-budget', '768');
    await page.click('#recall button[type=submit]');
    await page.waitForSelector('#recall-block');
    const shown = (await page.textContent('#recall-block'))!;
    // The block exactly as the API returns it (each response has its own marker nonce).
    const direct = await memory.context(agentId, { query: question, maxTokens: 768 });
    const nonceFree = (text: string) => text.replace(/MEMORY \d+/g, 'MEMORY n');
    expect(nonceFree(shown)).toBe(nonceFree(direct.markdown));
    expect(shown).toContain('Lisbon');

    // A cited record opens what it stands for, as stored (redacted) with its batch.
    const cite = page.locator('#recall-block button.cite[data-kind="record"]').first();
    const recordId = (await cite.getAttribute('data-cite'))!;
    await cite.click();
    await page.waitForSelector(`#recall-detail [data-record="${recordId}"]`);
    const detail = (await page.textContent('#recall-detail'))!;
    const response = await fetch(`${stack.url}/v1/agents/${agentId}/records/${encodeURIComponent(recordId)}`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } });
    const record = (await response.json()) as { content: string; role: string; sequence: number; batch?: { index: number; consolidated: boolean } };
    expect(response.status).toBe(200);
    expect(detail).toContain(record.content);
    expect(detail).toContain(`record ${record.sequence}`);
    expect(detail).toMatch(new RegExp(`batch ${record.batch!.index} \\(records \\d+–\\d+\\), consolidated`));

    // The injection-log entry of that very response.
    const injection = (await page.textContent('#recall-injection pre'))!;
    expect(JSON.parse(injection)).toMatchObject({ query: question, maxTokens: 768 });
    expect(JSON.parse(injection).items.map((item: { id: string }) => item.id)).toContain(recordId);
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/recall.png`, fullPage: true });
  });

  it('answers an unknown record id with a 404 that names it', async () => {
    const response = await fetch(`${stack.url}/v1/agents/${agentId}/records/no-such-record`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { message: string }).message).toContain('no-such-record');
  });

  it('renders remembered markup as text and runs none of it', async () => {
    const texts = [
      ...(await MemoryClient.all(memory.tasks(agentId))).map((task) => task.title),
      ...(await MemoryClient.all(memory.summaries(agentId, 'count'))).map((summary) => summary.text),
      ...(await MemoryClient.all(memory.summaries(agentId, 'time'))).map((summary) => summary.text),
    ];
    expect(texts.some((value) => value.includes('<b>Priya</b>'))).toBe(true);
    for (const view of ['tasks', 'ladders']) {
      await open(view);
      expect(await page.locator('#view b, #view img').count()).toBe(0);
    }
    expect(await page.textContent('#view')).toContain('<b>Priya</b>');
    await open('recall');
    await page.fill('#recall-question', 'What should I email Priya?');
    await page.click('#recall button[type=submit]');
    await page.waitForSelector('#recall-block');
    // The context block itself drops the tags (domain/inert-text.ts); the page would show them as text either way.
    expect(await page.textContent('#recall-block')).toMatch(/email Priya the +notes/);
    expect(await page.locator('#view b, #view img').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { __injected?: number }).__injected)).toBeUndefined();
  });
});
