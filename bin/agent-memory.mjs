#!/usr/bin/env node
// `npx agent-memory <command>`: runs the TypeScript CLI (clients/cli/main.ts) through tsx, no build step.
import { register } from 'tsx/esm/api';

register();
const { run } = await import('../clients/cli/main.ts');
process.exitCode = await run(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  isTTY: Boolean(process.stderr.isTTY),
});
