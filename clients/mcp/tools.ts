/**
 * The memory as MCP tools, for agents in MCP clients. Each tool is described
 * for a model and talks to the HTTP API through the typed client (with the
 * server's key). `feedback` closes the loop: the model says whether a recalled
 * item was helpful, wrong or outdated.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { MemoryApiError, MemoryClient, type Contact, type EventInput } from '../typescript/src/index.js';

export interface MemoryToolsOptions {
  readonly client: MemoryClient;
  /** The agent whose memory the tools use when a call names none. */
  readonly agentId?: string | undefined;
}

const agentIdInput = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/)
  .optional()
  .describe('Whose memory to use. Leave out to use the agent this server was started for.');

/** Same rule as the API's (functions/domain/scope.ts). */
const projectInput = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,63}$/)
  .optional();

function text(value: string, structured?: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: value }], ...(structured ? { structuredContent: structured } : {}) };
}

function failure(error: unknown): CallToolResult {
  const message =
    error instanceof MemoryApiError
      ? `The memory service refused the call (${error.status} ${error.error}): ${error.message}`
      : `The memory service could not be reached: ${(error as Error)?.message ?? String(error)}`;
  return { isError: true, content: [{ type: 'text', text: message }] };
}

function contactCard(contact: Contact): string {
  const lines = [`${contact.name} (id ${contact.id}, ${contact.status})`];
  if (contact.aliases.length > 0) lines.push(`Also known as: ${contact.aliases.join(', ')}`);
  if (contact.role || contact.organisation) lines.push(`Role: ${[contact.role, contact.organisation].filter(Boolean).join(' at ')}`);
  if (contact.biography) lines.push(`Biography: ${contact.biography}`);
  if (contact.summary) lines.push(`Lately: ${contact.summary}`);
  for (const relationship of contact.relationships) lines.push(`Relationship: ${relationship.type} ${relationship.to}`);
  for (const preference of contact.preferences) lines.push(`Prefers: ${preference}`);
  for (const channel of contact.channels) lines.push(`${channel.type}: ${channel.value}`);
  for (const change of contact.history.slice(-5)) lines.push(`Changed ${change.field} from ${JSON.stringify(change.from)} to ${JSON.stringify(change.to)} on ${change.at.slice(0, 10)}`);
  lines.push(`Last mentioned: ${contact.lastMentionedAt}`);
  return lines.join('\n');
}

export function createMemoryMcpServer(options: MemoryToolsOptions): McpServer {
  const server = new McpServer({ name: 'agent-memory', version: '0.1.0' });
  const agentOf = (agentId: string | undefined): string => {
    const chosen = agentId ?? options.agentId;
    if (!chosen) throw new MemoryApiError(400, 'ValidationError', 'agentId: is required (this server was started without --agent)');
    return chosen;
  };
  const guarded =
    <A>(run: (args: A) => Promise<CallToolResult>) =>
    async (args: A): Promise<CallToolResult> => {
      try {
        return await run(args);
      } catch (error) {
        return failure(error);
      }
    };

  server.registerTool(
    'remember',
    {
      title: 'Remember messages',
      description:
        'Store messages of the conversation in long-term memory. Send what the user and you said, in order, with when it was said if you know. ' +
        'Storing is cheap and safe to repeat: the same message with the same timestamp is stored once. Consolidation into contacts, facts and tasks happens in the background (in batches), so recall may not show a message at once.',
      inputSchema: {
        agentId: agentIdInput,
        messages: z
          .array(
            z.object({
              role: z.enum(['user', 'assistant', 'tool', 'system']).describe('Who said it'),
              content: z.string().min(1).max(32_768).describe('What was said, verbatim'),
              timestamp: z.iso.datetime({ offset: true }).optional().describe('When it was said (ISO 8601 with zone); now if left out'),
              contact: z.string().min(1).max(200).optional().describe('The person the message is from or about, by name'),
            }),
          )
          .min(1)
          .max(500)
          .describe('The messages, oldest first'),
        interactionId: z.string().regex(/^[\x21-\x7E]{1,128}$/).optional().describe('Groups messages of one conversation or session'),
        project: projectInput.describe('The project or topic the messages belong to: what is learnt from them is scoped to it'),
      },
      annotations: { idempotentHint: true, destructiveHint: false },
    },
    guarded(async ({ agentId, messages, interactionId, project }) => {
      const events: EventInput[] = messages.map((message) => ({
        type: 'message',
        role: message.role,
        content: message.content,
        ...(message.timestamp ? { timestamp: message.timestamp } : {}),
        ...(message.contact ? { contact: { name: message.contact } } : {}),
        ...(interactionId ? { interactionId } : {}),
        ...(project ? { metadata: { project } } : {}),
      }));
      const result = await options.client.remember(agentOf(agentId), events);
      return text(`Stored ${result.accepted} message(s)${result.duplicates > 0 ? `; ${result.duplicates} were already stored` : ''}.`, { accepted: result.accepted, duplicates: result.duplicates });
    }),
  );

  server.registerTool(
    'recall',
    {
      title: 'Recall from memory',
      description:
        'Get what long-term memory knows that is relevant to a question or topic: contacts, facts, open tasks and summaries of past conversations, ' +
        'as a compact block that fits a token budget. Each line cites where it came from; the ids of every included item are returned too. ' +
        'Memory describes the past: prefer what the user says now when they disagree.',
      inputSchema: {
        agentId: agentIdInput,
        query: z.string().min(1).max(1_000).describe('The question or topic, in plain words'),
        maxTokens: z.number().int().min(100).max(32_000).optional().describe('Token budget for the block (default 1500)'),
        contact: z.string().min(1).max(200).optional().describe('A person (name or contact id) whose items should rank first'),
        project: projectInput.describe("A project or topic: its memory ranks first, agent-wide memory follows, other projects' is left out"),
      },
      outputSchema: {
        markdown: z.string(),
        items: z.array(z.object({ id: z.string(), kind: z.string(), version: z.string() })),
        requestId: z.string(),
        tokens: z.number(),
        pendingRecords: z.number(),
      },
      annotations: { readOnlyHint: true },
    },
    guarded(async ({ agentId, query, maxTokens, contact, project }) => {
      const context = await options.client.context(agentOf(agentId), { query, ...(maxTokens ? { maxTokens } : {}), ...(contact ? { contact } : {}), ...(project ? { project } : {}) });
      const sources = context.items.map((item) => `${item.kind}:${item.id}`).join(', ');
      const lag = context.freshness.pendingRecords > 0 ? `\n(${context.freshness.pendingRecords} recent records are not consolidated yet.)` : '';
      return text(`${context.markdown}${lag}\n\nSources (${context.requestId}): ${sources || 'none'}`, {
        markdown: context.markdown,
        items: context.items,
        requestId: context.requestId,
        tokens: context.tokens,
        pendingRecords: context.freshness.pendingRecords,
      });
    }),
  );

  server.registerTool(
    'feedback',
    {
      title: 'Give feedback on a memory',
      description:
        'Say whether an item that recall returned was helpful, wrong or outdated, so memory learns: helpful confirms it, wrong removes it from recall (kept for audit), ' +
        'outdated archives it as no longer true. Use the item id and the requestId recall returned.',
      inputSchema: {
        agentId: agentIdInput,
        itemId: z.string().min(1).max(128).describe('The id of the item (from recall\'s items)'),
        outcome: z.enum(['helpful', 'wrong', 'outdated']).describe('What the item turned out to be'),
        requestId: z.string().min(1).max(128).optional().describe('The requestId of the recall that returned it'),
        note: z.string().min(1).max(1_000).optional().describe('Why, in a few words'),
      },
      annotations: { idempotentHint: false, destructiveHint: false },
    },
    guarded(async ({ agentId, itemId, outcome, requestId, note }) => {
      const result = await options.client.feedback(agentOf(agentId), { itemId, outcome, ...(requestId ? { injectionId: requestId } : {}), ...(note ? { note } : {}) });
      return text(`Recorded: ${outcome} for ${itemId} (${result.effect}).`, { feedbackId: result.feedbackId, effect: result.effect });
    }),
  );

  server.registerTool(
    'list_tasks',
    {
      title: 'List tasks',
      description: 'List the tasks memory has tracked (things someone committed to do), open ones by default, with owner and due date.',
      inputSchema: {
        agentId: agentIdInput,
        state: z.enum(['open', 'done', 'cancelled', 'all']).optional().describe('Which tasks (default open)'),
        limit: z.number().int().min(1).max(500).optional().describe('At most this many (default 50)'),
      },
      annotations: { readOnlyHint: true },
    },
    guarded(async ({ agentId, state, limit }) => {
      const wanted = state ?? 'open';
      const tasks = [];
      for await (const task of options.client.tasks(agentOf(agentId))) {
        if (wanted === 'all' || task.state === wanted) tasks.push(task);
        if (tasks.length >= (limit ?? 50)) break;
      }
      if (tasks.length === 0) return text(`No ${wanted === 'all' ? '' : `${wanted} `}tasks.`, { tasks: [] });
      const lines = tasks.map((task) => `- [${task.state}] ${task.title} (owner ${task.owner}${task.due ? `, due ${task.due}` : ''}; id ${task.id})`);
      return text(lines.join('\n'), { tasks: tasks.map((task) => ({ id: task.id, title: task.title, state: task.state, owner: task.owner, due: task.due })) });
    }),
  );

  server.registerTool(
    'get_contact',
    {
      title: 'Look up a contact',
      description: 'Everything memory knows about one person: role, organisation, relationships, preferences, biography, what is going on lately, and how details changed. Find them by name, alias or contact id.',
      inputSchema: { agentId: agentIdInput, name: z.string().min(1).max(200).describe('Name, alias or contact id') },
      annotations: { readOnlyHint: true },
    },
    guarded(async ({ agentId, name }) => {
      const wanted = name.trim().toLowerCase();
      const matches: Contact[] = [];
      for await (const contact of options.client.contacts(agentOf(agentId))) {
        const names = [contact.id, contact.name, ...contact.aliases].map((value) => value.toLowerCase());
        if (names.includes(wanted)) matches.unshift(contact);
        else if (names.some((value) => value.includes(wanted) || value.split(/\s+/).includes(wanted))) matches.push(contact);
      }
      if (matches.length === 0) return text(`No contact matches "${name}".`, { contacts: [] });
      return text(matches.slice(0, 3).map(contactCard).join('\n\n'), { contacts: matches.slice(0, 3).map((contact) => ({ id: contact.id, name: contact.name })) });
    }),
  );

  return server;
}
