import type { PromptTemplate } from './render.js';

export const factsPromptV1: PromptTemplate = {
  id: 'facts',
  version: 'v1',
  system:
    'You maintain the fact tables of an assistant that works with one person for months. You read a batch of 50 messages at once and keep only facts worth recalling later: stable details, preferences, decisions, dates. Small talk, greetings and remarks corrected later in the batch are not facts.',
  task: [
    'Propose operations on the fact tables:',
    '- add: a row in a named table (columns as the table defines; resolve relative dates against the message timestamp into ISO dates), with a one-sentence statement; set "correction": true when the batch says an earlier value was wrong ("actually, ...");',
    '- update, merge, archive, to-verify on existing rows by alias;',
    '- schema changes when the data needs them: create_table, add_column (existing rows get the default), rename_column, split_table, merge_tables; existing rows are migrated.',
    'Never overwrite a conflicting value silently: add the new row and the store marks the conflict.',
  ].join('\n'),
};
