/**
 * Starts one emulator for the whole run (moto from the project's virtualenv,
 * or the endpoint in AWS_ENDPOINT_URL, e.g. LocalStack) and hands its URL to
 * every test file.
 */
import type { TestProject } from 'vitest/node';
import { startEmulator } from '../../local/emulator.js';

declare module 'vitest' {
  export interface ProvidedContext {
    awsEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  const emulator = await startEmulator({
    endpoint: process.env.AWS_ENDPOINT_URL,
    log: (line) => process.stderr.write(`[emulator] ${line}\n`),
  });
  project.provide('awsEndpoint', emulator.endpoint);
  return async () => {
    await emulator.stop();
  };
}
