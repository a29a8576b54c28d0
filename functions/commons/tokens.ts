/** Token counting with the o200k tokenizer (offline), for every budget the service keeps. */
export { countTokens } from 'gpt-tokenizer';
