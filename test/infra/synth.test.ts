/**
 * `cdk synth` works offline, bundling with the locally installed esbuild (no
 * Docker), takes deploy-time settings from `-c key=value`, and refuses a wrong
 * one with its name and rule before anything is bundled.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const cdk = (args: string[], outdir: string) =>
  promisify(execFile)('npx', ['cdk', 'synth', '--no-notices', '--quiet', '--output', outdir, ...args], {
    encoding: 'utf8',
    env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true', CDK_DOCKER: 'false-docker-must-not-be-used' },
    timeout: 230_000,
    maxBuffer: 64 * 1024 * 1024,
  });

/** The functions whose bundles carry the local sentence encoder's model and TF.js's WebAssembly. */
const EMBEDDING_FUNCTIONS = ['Consolidator', 'Ladder', 'Sweep', 'Reader', 'Feedback'];

describe('cdk synth', () => {
  // Asynchronous, so the test worker keeps answering its runner while the synth runs (a shared machine can take a minute).
  it('synthesises the app offline, bundling every function with the runtime files it reads and the settings given', { timeout: 240_000 }, async () => {
    const outdir = mkdtempSync(join(tmpdir(), 'cdk-out-'));
    try {
      await cdk(['-c', 'consolidatorConcurrency=7'], outdir);
      const template = JSON.parse(readFileSync(join(outdir, 'AgentMemory.template.json'), 'utf8'));
      const functions = Object.entries(template.Resources as Record<string, { Type: string; Metadata?: Record<string, string> }>).filter(([, resource]) => resource.Type === 'AWS::Lambda::Function');
      expect(functions).toHaveLength(13);
      for (const [id, resource] of functions) {
        const files = readdirSync(join(outdir, resource.Metadata!['aws:asset:path']!));
        expect(files, id).toContain('index.mjs');
        const embeds = EMBEDDING_FUNCTIONS.some((name) => id.startsWith(`${name}Function`));
        expect(files.includes('model.json') && files.includes('vocab.json') && files.includes('tfjs-backend-wasm-simd.wasm'), id).toBe(embeds);
      }
      const mappings = Object.values(template.Resources as Record<string, { Type: string; Properties: { ScalingConfig?: { MaximumConcurrency: number } } }>).filter((r) => r.Type === 'AWS::Lambda::EventSourceMapping');
      expect(mappings.map((m) => m.Properties.ScalingConfig?.MaximumConcurrency)).toContain(7);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });

  it('stops on a wrong setting, naming it and the rule', { timeout: 120_000 }, async () => {
    const outdir = mkdtempSync(join(tmpdir(), 'cdk-out-'));
    try {
      const failure = await cdk(['-c', 'modelProvider=bedrok'], outdir).then(
        () => undefined,
        (error: { stderr?: string; code?: number }) => error,
      );
      expect(failure?.code).not.toBe(0);
      expect(failure?.stderr).toContain('modelProvider: must be local, bedrock or openai');
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
