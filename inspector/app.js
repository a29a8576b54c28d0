// The memory inspector: a static page that reads one agent's memory through the
// HTTP API with a key the user enters. Every value is rendered as text
// (textContent, never innerHTML), so nothing the memory holds can run or restyle the page.

const VIEWS = ['contacts', 'facts', 'tasks', 'ladders', 'audit', 'freshness', 'recall'];
const state = { api: '', agent: '', key: sessionStorage.getItem('agent-memory-key') ?? '', view: 'contacts' };

/** Builds an element; string children become text nodes. */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const view = document.getElementById('view');
const message = document.getElementById('message');

class ApiError extends Error {
  constructor(status, body) {
    super(`${status} ${body?.error ?? ''} ${body?.message ?? ''}`.trim());
    this.status = status;
  }
}

async function api(path, query = {}) {
  const url = new URL(`${state.api || location.origin}/v1/agents/${encodeURIComponent(state.agent)}${path}`);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
  const response = await fetch(url, { headers: state.key ? { authorization: `Bearer ${state.key}` } : {} });
  const text = await response.text();
  const body = text ? JSON.parse(text) : {};
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

async function all(path, query = {}) {
  const items = [];
  let nextToken;
  do {
    const page = await api(path, { ...query, limit: 100, nextToken });
    items.push(...page.items);
    nextToken = page.nextToken;
  } while (nextToken);
  return items;
}

const badge = (text) => el('span', { class: 'badge' }, text);
const when = (iso) => (iso ? iso.replace('T', ' ').slice(0, 16) : '');
const json = (value) => JSON.stringify(value, null, 2);

async function contactsView() {
  const contacts = await all('/contacts');
  if (contacts.length === 0) return [el('p', {}, 'No contacts yet.')];
  return contacts.map((contact) =>
    el('article', { class: 'card', 'data-id': contact.id },
      el('h3', {}, contact.name, badge(contact.status), contact.verification !== 'unverified' ? badge(contact.verification) : null),
      el('p', { class: 'muted' }, [contact.role, contact.organisation].filter(Boolean).join(' at ') || 'No role known', ` · last mentioned ${when(contact.lastMentionedAt)} · ${contact.id}`),
      contact.aliases.length ? el('p', {}, 'Also: ', contact.aliases.join(', ')) : null,
      contact.biography ? el('p', {}, el('strong', {}, 'Biography: '), contact.biography) : null,
      contact.summary ? el('p', {}, el('strong', {}, 'Lately: '), contact.summary) : null,
      el('dl', {},
        contact.relationships.flatMap((r) => [el('dt', {}, r.type), el('dd', {}, r.to)]),
        contact.preferences.flatMap((p) => [el('dt', {}, 'prefers'), el('dd', {}, p)]),
        contact.channels.flatMap((c) => [el('dt', {}, c.type), el('dd', {}, c.value)]),
      ),
      contact.history.length
        ? el('details', {}, el('summary', {}, `History (${contact.history.length} changes)`),
            el('table', {}, el('tr', {}, el('th', {}, 'When'), el('th', {}, 'Field'), el('th', {}, 'From'), el('th', {}, 'To'), el('th', {}, 'Batch')),
              contact.history.map((h) => el('tr', {}, el('td', {}, when(h.at)), el('td', {}, h.field), el('td', {}, json(h.from)), el('td', {}, json(h.to)), el('td', {}, h.batch)))))
        : null,
    ),
  );
}

async function factsView() {
  const facts = await all('/facts');
  if (facts.length === 0) return [el('p', {}, 'No facts yet.')];
  const tables = new Map();
  for (const fact of facts) tables.set(fact.table, [...(tables.get(fact.table) ?? []), fact]);
  return [...tables].map(([name, rows]) => {
    const columns = [...new Set(rows.flatMap((row) => Object.keys(row.row)))];
    return el('section', { 'data-table': name },
      el('h2', {}, name, badge(`${rows.length} rows`)),
      el('table', {},
        el('tr', {}, columns.map((column) => el('th', {}, column)), el('th', {}, 'Statement'), el('th', {}, 'Status'), el('th', {}, 'Updated')),
        rows.map((row) => el('tr', { 'data-id': row.id }, columns.map((column) => el('td', {}, row.row[column] ?? '')), el('td', {}, row.statement), el('td', {}, row.status), el('td', {}, when(row.updatedAt))))),
    );
  });
}

async function tasksView() {
  const tasks = await all('/tasks');
  const section = (title, list) =>
    el('section', {}, el('h2', {}, title, badge(list.length)),
      list.length === 0 ? el('p', { class: 'muted' }, 'None.') :
      el('table', {}, el('tr', {}, el('th', {}, 'Task'), el('th', {}, 'Owner'), el('th', {}, 'Due'), el('th', {}, 'State'), el('th', {}, 'Closed')),
        list.map((task) => el('tr', { 'data-id': task.id }, el('td', {}, task.title), el('td', {}, task.owner), el('td', {}, task.due ?? ''), el('td', {}, task.state), el('td', {}, when(task.closedAt))))));
  return [section('Open', tasks.filter((task) => task.state === 'open')), section('Closed', tasks.filter((task) => task.state !== 'open'))];
}

/**
 * One summary, openable down to its children and, at the base, the raw record ids it summarises.
 * Each summary is shown once: a run of empty days may be the child of the week it starts in and
 * of the empty run above it.
 */
function summaryNode(summary, byId, shown = new Set()) {
  shown.add(summary.id);
  const children = summary.children.map((id) => byId.get(id)).filter((child) => child && !shown.has(child.id));
  for (const child of children) shown.add(child.id);
  return el('details', { 'data-id': summary.id, 'data-level': summary.level },
    el('summary', {}, `${summary.name} ${summary.from} – ${summary.to}`, summary.empty ? badge('empty') : badge(`${summary.tokens} tokens`)),
    el('pre', {}, summary.text || '(nothing happened)'),
    children.length ? children.map((child) => summaryNode(child, byId, shown)) : summary.sources.length ? el('p', { class: 'muted' }, `Raw records: ${summary.sources.join(', ')}`) : null,
  );
}

async function laddersView() {
  return Promise.all(['time', 'count'].map(async (ladder) => {
    const summaries = await all('/summaries', { ladder });
    const byId = new Map(summaries.map((s) => [s.id, s]));
    const childIds = new Set(summaries.flatMap((s) => s.children));
    const roots = summaries.filter((s) => !childIds.has(s.id)).sort((a, b) => b.level - a.level || a.from.localeCompare(b.from));
    return el('section', { 'data-ladder': ladder }, el('h2', {}, ladder === 'time' ? 'Time ladder' : 'Count ladder', badge(`${summaries.length} summaries`)),
      roots.length ? (() => { const shown = new Set(); return roots.map((root) => summaryNode(root, byId, shown)); })() : el('p', { class: 'muted' }, 'No summaries yet.'));
  }));
}

async function auditView() {
  const status = await api('/status');
  const latest = status.lastConsolidatedBatch;
  const output = el('div', {});
  const input = el('input', { type: 'number', min: 1, max: Math.max(1, latest), value: Math.max(1, latest), 'aria-label': 'Batch number', id: 'audit-batch' });
  const show = async () => {
    output.replaceChildren(el('p', { class: 'muted' }, 'Loading…'));
    try {
      const audit = await api('/audit', { batch: input.value });
      output.replaceChildren(...audit.entries.map((entry) =>
        el('section', { class: 'card', 'data-updater': entry.updater },
          el('h3', {}, `${entry.updater}: batch ${audit.batch}`, badge(`${entry.changes.length} changes`), entry.quarantined.length ? badge(`${entry.quarantined.length} quarantined`) : null),
          el('p', { class: 'muted' }, `applied ${when(entry.appliedAt)} by ${entry.modelId}`),
          entry.changes.map((change) => el('div', { class: 'diff' }, el('pre', { class: 'before' }, change.before ? json(change.before) : '(new)'), el('pre', { class: 'after' }, json(change.after)))),
          entry.quarantined.map((q) => el('p', {}, 'Quarantined: ', q.reason)))));
    } catch (error) {
      output.replaceChildren(el('p', {}, error.status === 404 ? `No patch was applied for batch ${input.value}.` : String(error.message)));
    }
  };
  input.addEventListener('change', show);
  if (latest === 0) return [el('p', {}, 'Nothing consolidated yet.')];
  await show();
  return [el('p', {}, el('label', {}, 'Batch (1 to ' + latest + ')', input)), output];
}

async function freshnessView() {
  const status = await api('/status');
  const snapshot = await api('/snapshot', { views: 'contacts' }).catch((error) => (error.status === 404 ? undefined : Promise.reject(error)));
  const pending = status.lastSequence - status.lastConsolidatedSequence;
  const rows = [
    ['Records ingested', status.lastSequence],
    ['Records consolidated', status.lastConsolidatedSequence],
    ['Pending consolidation', pending],
    ['Batches closed / consolidated', `${status.batchesClosed} / ${status.lastConsolidatedBatch}`],
    ['Messages in the open batch', status.batchMessages],
    ['Newest consolidated record', when(status.lastConsolidatedRecordAt) || 'none'],
    ['Snapshot version', snapshot ? snapshot.version : 'none yet'],
    ['Snapshot assembled', snapshot ? when(snapshot.generatedAt) : ''],
    ['First seen', when(status.firstSeenAt)],
  ];
  return [el('h2', {}, pending === 0 ? 'Caught up' : `${pending} records behind`), el('dl', { id: 'freshness' }, rows.flatMap(([name, value]) => [el('dt', {}, name), el('dd', {}, value)]))];
}

/** What a cited id stands for: a record (speaker, time, the batch that holds it), an item's versions, or a summary. */
async function citation(id, kind) {
  if (kind === 'record') {
    const record = await api(`/records/${encodeURIComponent(id)}`);
    const batch = record.batch ? `batch ${record.batch.index} (records ${record.batch.fromSequence}–${record.batch.toSequence}), ${record.batch.consolidated ? 'consolidated' : 'not consolidated yet'}` : 'in the open batch, not consolidated yet';
    return el('article', { class: 'card', 'data-record': record.id },
      el('h3', {}, record.id, badge(record.role), record.speaker ? badge(record.speaker) : null),
      el('p', { class: 'muted' }, `${when(record.timestamp)} · record ${record.sequence} · ${batch}`),
      el('pre', {}, record.content));
  }
  if (kind === 'summary') return el('article', { class: 'card' }, el('h3', {}, id), el('p', { class: 'muted' }, 'A summary: open it in the Ladders view.'));
  const history = await api(`/items/${encodeURIComponent(id)}/history`);
  const latest = history.versions.at(-1);
  return el('article', { class: 'card', 'data-item': id },
    el('h3', {}, id, badge(kind), badge(`${history.versions.length} versions`)),
    latest ? el('p', { class: 'muted' }, `version ${latest.version}, batch ${latest.batch}, ${latest.cause}, ${when(latest.appliedAt)}`) : null,
    latest ? el('p', {}, latest.after.statement ?? latest.after.title ?? latest.after.name, badge(latest.after.status), badge(latest.after.verification)) : null,
    latest ? el('p', { class: 'muted' }, `Evidence: ${latest.after.evidence.map((e) => e.recordId).join(', ')}`) : null,
    latest ? el('details', {}, el('summary', {}, 'This version in full'), el('pre', {}, json(latest.after))) : null);
}

/** A block's text with every id it cites made a button that opens what it stands for. */
function citedText(markdown, included, open) {
  const kinds = new Map(included.map((item) => [item.id, item.kind]));
  const ids = [...kinds.keys()].sort((a, b) => b.length - a.length).map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (ids.length === 0) return [markdown];
  const pattern = new RegExp(`(?<![\\w:])(${ids.join('|')})(?![\\w:])`, 'g');
  const parts = [];
  let last = 0;
  for (const match of markdown.matchAll(pattern)) {
    parts.push(markdown.slice(last, match.index));
    const id = match[1];
    parts.push(el('button', { type: 'button', class: 'cite', 'data-cite': id, 'data-kind': kinds.get(id), title: `Open ${id}`, onclick: () => open(id, kinds.get(id)) }, id));
    last = match.index + id.length;
  }
  parts.push(markdown.slice(last));
  return parts;
}

/** A question asked as an agent asks it: the block exactly as returned, its cited ids openable, and the injection-log entry. */
async function recallView() {
  const question = el('input', { id: 'recall-question', type: 'search', placeholder: 'Ask as the agent would', 'aria-label': 'Question', required: true, size: 60 });
  const budget = el('input', { id: 'recall-budget', type: 'number', min: 256, max: 8192, step: 256, value: 1024, 'aria-label': 'Token budget' });
  const block = el('div', {});
  const detail = el('div', { id: 'recall-detail', 'aria-live': 'polite' });
  const open = async (id, kind) => {
    detail.replaceChildren(el('p', { class: 'muted' }, `Opening ${id}…`));
    try {
      detail.replaceChildren(await citation(id, kind));
    } catch (error) {
      detail.replaceChildren(el('p', {}, `Could not open ${id}: ${error.message}`));
    }
  };
  const ask = async (event) => {
    event.preventDefault();
    block.replaceChildren(el('p', { class: 'muted' }, 'Asking…'));
    detail.replaceChildren();
    try {
      const context = await api('/context', { query: question.value, maxTokens: budget.value });
      const injection = await api(`/injections/${encodeURIComponent(context.requestId)}`);
      block.replaceChildren(
        el('p', { class: 'muted' }, `${context.tokens} of ${context.maxTokens} tokens · ${context.items.length} ids cited · snapshot ${context.snapshotVersion} · ${context.freshness.pendingRecords ?? 0} records not consolidated yet`),
        el('pre', { id: 'recall-block' }, citedText(context.markdown, context.items, open)),
        el('details', { id: 'recall-injection' }, el('summary', {}, `Injection log entry ${context.requestId}`), el('pre', {}, json(injection))),
      );
    } catch (error) {
      block.replaceChildren(el('p', {}, error.status === 404 ? `Agent ${state.agent} has nothing stored yet.` : `Could not ask: ${error.message}`));
    }
  };
  return [el('form', { id: 'recall', onsubmit: ask }, el('label', {}, 'Question', question), el('label', {}, 'Tokens', budget), el('button', { type: 'submit' }, 'Recall')), el('div', { class: 'recall' }, block, detail)];
}

const RENDER = { contacts: contactsView, facts: factsView, tasks: tasksView, ladders: laddersView, audit: auditView, freshness: freshnessView, recall: recallView };

async function show(name) {
  state.view = name;
  for (const tab of document.querySelectorAll('[role=tab]')) {
    const selected = tab.dataset.view === name;
    tab.setAttribute('aria-selected', String(selected));
    tab.tabIndex = selected ? 0 : -1;
  }
  history.replaceState(null, '', `#agent=${encodeURIComponent(state.agent)}&view=${name}${state.api ? `&api=${encodeURIComponent(state.api)}` : ''}`);
  if (!state.agent) {
    view.replaceChildren(el('p', {}, 'Enter an agent id (and a key) to open its memory.'));
    return;
  }
  message.textContent = '';
  view.setAttribute('aria-busy', 'true');
  view.replaceChildren(el('p', { class: 'muted' }, 'Loading…'));
  try {
    const nodes = await RENDER[name]();
    if (state.view === name) view.replaceChildren(...nodes);
  } catch (error) {
    view.replaceChildren();
    message.textContent = error.status === 401 || error.status === 403 ? `The API refused the key (${error.message}).` : error.status === 404 ? `Agent ${state.agent} has nothing stored yet.` : `Could not load: ${error.message}`;
  } finally {
    view.setAttribute('aria-busy', 'false');
    view.dataset.view = name;
  }
}

document.getElementById('connect').addEventListener('submit', (event) => {
  event.preventDefault();
  state.api = document.getElementById('api').value.trim().replace(/\/+$/, '');
  state.agent = document.getElementById('agent').value.trim();
  state.key = document.getElementById('key').value;
  sessionStorage.setItem('agent-memory-key', state.key);
  void show(state.view);
});

for (const tab of document.querySelectorAll('[role=tab]')) tab.addEventListener('click', () => void show(tab.dataset.view));

document.querySelector('nav').addEventListener('keydown', (event) => {
  if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
  const next = VIEWS[(VIEWS.indexOf(state.view) + (event.key === 'ArrowRight' ? 1 : VIEWS.length - 1)) % VIEWS.length];
  void show(next).then(() => document.querySelector(`[data-view=${next}]`).focus());
});

document.addEventListener('keydown', (event) => {
  if (event.target instanceof HTMLInputElement || event.ctrlKey || event.metaKey || event.altKey) return;
  const index = Number(event.key) - 1;
  if (Number.isInteger(index) && VIEWS[index]) void show(VIEWS[index]);
});

/** The agent, view and API are in the address (#agent=…&view=…), so a view can be bookmarked or linked. */
function fromAddress() {
  const params = new URLSearchParams(location.hash.slice(1));
  state.agent = params.get('agent') ?? '';
  state.api = params.get('api') ?? '';
  document.getElementById('agent').value = state.agent;
  document.getElementById('api').value = state.api;
  document.getElementById('key').value = state.key;
  void show(VIEWS.includes(params.get('view')) ? params.get('view') : 'contacts');
}

window.addEventListener('hashchange', fromAddress);
fromAddress();
