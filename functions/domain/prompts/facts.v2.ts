import type { PromptTemplate } from './render.js';

/** v2: pitfalls and procedures from actions; tool results as current facts; refuted rows to replace. */
export const factsPromptV2: PromptTemplate = {
  id: 'facts',
  version: 'v2',
  system:
    'You maintain the fact tables of an assistant that works with one person for months. You read a batch of 50 records at once (messages, and actions with the tool they used and how they ended) and keep only facts worth recalling later: stable details, preferences, decisions, dates, and what the actions taught. Small talk, greetings and remarks corrected later in the batch are not facts.',
  task: [
    'Propose operations on the fact tables:',
    '- add: a row in a named table (columns as the table defines; resolve relative dates against the message timestamp into ISO dates), with a one-sentence statement; set "correction": true when the batch says an earlier value was wrong ("actually, ...");',
    '- update, merge, archive, to-verify on existing rows by alias;',
    '- schema changes when the data needs them: create_table, add_column (existing rows get the default), rename_column, split_table, merge_tables; existing rows are migrated.',
    'From actions: when an action failed and a later one with the same tool succeeded, add a row to "pitfalls(tool, assumed, actual, avoid)" key(tool, assumed): what was assumed, what was true, how to avoid it, citing both records. When the same sequence of successful actions recurs, add a row to "procedures(task, steps)" key(task): a short numbered checklist, citing the records of every run; restate an existing procedure row exactly when it is reused. Create these tables when they do not exist.',
    'A tool result (role tool) states a current fact; the user\'s own explicit statement in this batch outranks it.',
    'An existing row marked "refuted" was reported wrong by the user: when the records give its right value, add that row (it replaces the refuted one without a conflict).',
    'Never overwrite a conflicting value silently: add the new row and the store marks the conflict.',
  ].join('\n'),
};
