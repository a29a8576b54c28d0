/**
 * Synthesises the CDK stack in-process and returns its CloudFormation
 * template. The local stack provisions from this template, so local and cloud
 * resources come from the same definitions and cannot drift.
 *
 * Templates are cached under node_modules/.cache, keyed by the stack props and
 * the content of every source file the stack is built from (lib/, functions/,
 * the lockfile): the first synthesis in a process costs about 3 s (loading the
 * CDK), and every test file starts a stack. A cache hit never loads the CDK.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MemoryServiceStackProps } from '../lib/memory-service-stack.js';

export type CfnTemplate = { Resources: Record<string, CfnResource> };
export interface CfnResource {
  readonly Type: string;
  readonly Properties?: Record<string, unknown>;
  readonly Metadata?: Record<string, unknown>;
}

export const LOCAL_STACK_NAME = 'AgentMemoryLocal';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'agent-memory-templates');
const ASSEMBLIES = join(ROOT, 'node_modules', '.cache', 'agent-memory-assemblies');

/** A synthesised cloud assembly with its bundles: what `cdk deploy` would upload. */
export interface BundledAssembly {
  readonly template: CfnTemplate;
  /** The assembly directory; each function's asset is a directory in it (`aws:asset:path` metadata). */
  readonly directory: string;
}

export async function synthesizeTemplate(props: MemoryServiceStackProps = {}): Promise<CfnTemplate> {
  const key = templateKey(props);
  const cached = join(CACHE, `${key}.json`);
  try {
    return JSON.parse(readFileSync(cached, 'utf8')) as CfnTemplate;
  } catch {
    // Not cached yet (or unreadable): synthesise.
  }
  const template = await synthesize(props);
  try {
    mkdirSync(CACHE, { recursive: true });
    // Written whole, then renamed: a concurrent reader never sees half a template.
    const partial = `${cached}.${process.pid}.tmp`;
    writeFileSync(partial, JSON.stringify(template));
    renameSync(partial, cached);
  } catch {
    // A read-only checkout still works, uncached.
  }
  return template;
}

async function synthesize(props: MemoryServiceStackProps): Promise<CfnTemplate> {
  const [{ App }, { MemoryServiceStack }] = await Promise.all([import('aws-cdk-lib'), import('../lib/memory-service-stack.js')]);
  const outdir = mkdtempSync(join(tmpdir(), 'agent-memory-synth-'));
  try {
    // Bundling is skipped: the local runtime imports the TypeScript handlers directly.
    const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new MemoryServiceStack(app, LOCAL_STACK_NAME, props);
    return app.synth().getStackByName(stack.stackName).template as CfnTemplate;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/**
 * Synthesises the stack as `cdk synth` does, bundling every function with
 * esbuild (no Docker) into a cached cloud assembly, keyed like the template:
 * the local stack can then run each function from the very files Lambda gets.
 */
export async function synthesizeAssembly(props: MemoryServiceStackProps = {}): Promise<BundledAssembly> {
  const directory = join(ASSEMBLIES, templateKey(props, 'bundled'));
  const templateFile = join(directory, `${LOCAL_STACK_NAME}.template.json`);
  if (!existsSync(templateFile)) {
    mkdirSync(ASSEMBLIES, { recursive: true });
    const partial = mkdtempSync(join(ASSEMBLIES, 'partial-'));
    try {
      const [{ App }, { MemoryServiceStack }] = await Promise.all([import('aws-cdk-lib'), import('../lib/memory-service-stack.js')]);
      // Asset metadata names each function's bundle directory, as the CDK CLI asks for it.
      const app = new App({ outdir: partial, context: { 'aws:cdk:enable-asset-metadata': true } });
      new MemoryServiceStack(app, LOCAL_STACK_NAME, props);
      app.synth();
      try {
        // Whole, then renamed: a concurrent reader never sees half an assembly.
        renameSync(partial, directory);
      } catch (error) {
        // Another process got there first with the same inputs.
        if (!existsSync(templateFile)) throw error;
      }
    } finally {
      rmSync(partial, { recursive: true, force: true });
    }
  }
  return { template: JSON.parse(readFileSync(templateFile, 'utf8')) as CfnTemplate, directory };
}

/** The props, and the content of every file the template (or its bundles) can depend on. */
function templateKey(props: MemoryServiceStackProps, variant = 'template'): string {
  const hash = createHash('sha256').update(variant).update(JSON.stringify(props));
  for (const file of [...sourceFiles(join(ROOT, 'lib')), ...sourceFiles(join(ROOT, 'functions')), join(ROOT, 'package-lock.json')]) {
    hash.update(file.slice(ROOT.length)).update('\u0000');
    try {
      hash.update(readFileSync(file));
    } catch {
      hash.update('missing');
    }
  }
  return hash.digest('hex').slice(0, 32);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|mjs)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}
