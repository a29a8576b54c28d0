/**
 * The local, deterministic model adapter: no network, the default for
 * `npm start` and the tests. It answers each updater's request with rule-based
 * extraction over NLP libraries, and reports usage as the tokens of the prompt
 * it was given and of the JSON it returned (o200k encoding), so its cost can be
 * compared with other strategies on the same scale.
 */
import type { ModelPort, ModelRequest, ModelResponse } from '../../../ports/model.js';
import { extractContacts } from './contacts.js';
import { extractFacts } from './facts.js';
import { extractTasks } from './tasks.js';
import { summariseExtractively } from './summaries.js';
import { countTokens } from './text.js';

export const LOCAL_MODEL_ID = 'local-rules-v1';

export class LocalModel implements ModelPort {
  readonly modelId = LOCAL_MODEL_ID;

  async invoke(request: ModelRequest): Promise<ModelResponse> {
    const output =
      request.task === 'summary'
        ? summariseExtractively(request.input)
        : request.task === 'contacts'
          ? extractContacts(request.input)
          : request.task === 'facts'
            ? extractFacts(request.input)
            : extractTasks(request.input);
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
