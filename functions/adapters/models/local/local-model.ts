/**
 * The local, deterministic model adapter: no network, the default for
 * `npm start` and the tests. It answers each updater's request with rule-based
 * extraction over NLP libraries, and reports usage as the tokens of the prompt
 * it was given and of the JSON it returned (o200k encoding), so its cost can be
 * compared with other strategies on the same scale.
 */
import type { ModelPort, ModelRequest, ModelResponse, UpdaterInput } from '../../../ports/model.js';
import { extractContacts } from './contacts.js';
import { extractFacts } from './facts.js';
import { extractTasks } from './tasks.js';
import { summariseExtractively } from './summaries.js';
import { countTokens, recaseKnownNames } from './text.js';

export const LOCAL_MODEL_ID = 'local-rules-v1';

export class LocalModel implements ModelPort {
  readonly modelId = LOCAL_MODEL_ID;

  async invoke(request: ModelRequest): Promise<ModelResponse> {
    const output =
      request.task === 'summary'
        ? summariseExtractively(request.input)
        : request.task === 'contacts'
          ? extractContacts(withNamesCased(request.input))
          : request.task === 'facts'
            ? extractFacts(withNamesCased(request.input))
            : extractTasks(withNamesCased(request.input));
    return {
      output,
      modelId: this.modelId,
      usage: {
        inputTokens: countTokens(request.prompt.system) + countTokens(request.prompt.user),
        outputTokens: countTokens(JSON.stringify(output)),
      },
    };
  }
}

/** Names the batch spells with capitals somewhere, or the store knows, read as names where chat wrote them in lower case. */
function withNamesCased(input: UpdaterInput): UpdaterInput {
  const known = input.existing.flatMap((item) => [item.name, ...((item.aliases as unknown[] | undefined) ?? [])].filter((name): name is string => typeof name === 'string'));
  return { ...input, records: recaseKnownNames(input.records, known) };
}
