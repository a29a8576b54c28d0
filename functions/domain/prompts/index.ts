/** The prompt each updater uses, by version. Bump the version when the text changes; audits record it. */
import type { UpdaterName } from '../memory.js';
import { contactsPromptV1 } from './contacts.v1.js';
import { factsPromptV2 } from './facts.v2.js';
import type { PromptTemplate } from './render.js';
import { tasksPromptV1 } from './tasks.v1.js';

export const CURRENT_PROMPTS: Record<UpdaterName, PromptTemplate> = {
  contacts: contactsPromptV1,
  facts: factsPromptV2,
  tasks: tasksPromptV1,
};
