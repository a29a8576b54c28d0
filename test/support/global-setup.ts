/**
 * Starts one emulator per test project (moto from the project's virtualenv,
 * or the endpoint in AWS_ENDPOINT_URL, e.g. LocalStack) and hands its URL to
 * every test file; meanwhile fills the local template cache for the default
 * stack props, and for the bundled lane (vitest.config.ts) synthesises the
 * default stack with its bundles once, before its files start.
 */
import type { TestProject } from 'vitest/node';
import { startEmulator } from '../../local/emulator.js';
import { synthesizeAssembly, synthesizeTemplate } from '../../local/template.js';

declare module 'vitest' {
  export interface ProvidedContext {
    awsEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  const [emulator] = await Promise.all([
    startEmulator({
      endpoint: process.env.AWS_ENDPOINT_URL,
      log: (line) => process.stderr.write(`[emulator] ${line}\n`),
    }),
    // Most test stacks use the default props: their template is synthesised once here, while the emulator
    // starts (on a fresh clone, while its virtualenv installs), instead of by the first files of each worker.
    project.name === 'bundles' ? synthesizeAssembly() : synthesizeTemplate(),
  ]);
  project.provide('awsEndpoint', emulator.endpoint);
  return async () => {
    await emulator.stop();
  };
}
