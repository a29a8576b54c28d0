/** `cdk synth` works offline, bundling with the locally installed esbuild (no Docker). */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('cdk synth', () => {
  // Asynchronous, so the test worker keeps answering its runner while the synth runs (a shared machine can take a minute).
  it('synthesises the app offline and bundles every function with esbuild', { timeout: 240_000 }, async () => {
    const outdir = mkdtempSync(join(tmpdir(), 'cdk-out-'));
    try {
      await promisify(execFile)('npx', ['cdk', 'synth', '--no-notices', '--quiet', '--output', outdir], {
        encoding: 'utf8',
        env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true', CDK_DOCKER: 'false-docker-must-not-be-used' },
        timeout: 230_000,
        maxBuffer: 64 * 1024 * 1024,
      });
      const template = JSON.parse(readFileSync(join(outdir, 'AgentMemory.template.json'), 'utf8'));
      const functions = Object.values(template.Resources as Record<string, { Type: string }>).filter(
        (resource) => resource.Type === 'AWS::Lambda::Function',
      );
      expect(functions).toHaveLength(13);
      const bundles = readdirSync(outdir).filter((name) => name.startsWith('asset.'));
      for (const bundle of bundles) {
        expect(readdirSync(join(outdir, bundle))).toContain('index.mjs');
      }
      expect(bundles.length).toBeGreaterThanOrEqual(9);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
