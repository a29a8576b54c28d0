/**
 * Benchmark output: a markdown table on stdout, one JSON line at the end, and
 * the same section rewritten in docs/BENCHMARKS.md between its markers.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MOTO_VERSION } from '../../local/emulator.js';

const benchmarksFile = fileURLToPath(new URL('../../docs/BENCHMARKS.md', import.meta.url));

export interface BenchReport {
  readonly name: string;
  readonly title: string;
  readonly command: string;
  /** Markdown: what was measured and against what. */
  readonly description: string;
  readonly table: { readonly header: readonly string[]; readonly rows: readonly (readonly (string | number)[])[] };
  readonly notes?: readonly string[];
  readonly json: Record<string, unknown>;
}

export function markdownTable(table: BenchReport['table']): string {
  const line = (cells: readonly (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(table.header), line(table.header.map(() => '---')), ...table.rows.map(line)].join('\n');
}

export function environmentLine(emulator: string): string {
  return `${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}, emulator: ${emulator}`;
}

export function printReport(report: BenchReport): void {
  process.stdout.write(`\n## ${report.title}\n\n${markdownTable(report.table)}\n\n`);
  for (const note of report.notes ?? []) process.stdout.write(`- ${note}\n`);
  process.stdout.write(`${JSON.stringify({ bench: report.name, ...report.json })}\n`);
}

/** Replaces (or appends) this benchmark's section in docs/BENCHMARKS.md. */
export function recordReport(report: BenchReport, emulator = `moto ${MOTO_VERSION}`): void {
  const begin = `<!-- bench:${report.name}:begin -->`;
  const end = `<!-- bench:${report.name}:end -->`;
  const section = [
    begin,
    `## ${report.title}`,
    '',
    `Command: \`${report.command}\`  `,
    `Measured: ${environmentLine(emulator)}`,
    '',
    report.description,
    '',
    markdownTable(report.table),
    '',
    ...(report.notes ?? []).map((note) => `- ${note}`),
    ...(report.notes?.length ? [''] : []),
    '```json',
    JSON.stringify({ bench: report.name, ...report.json }),
    '```',
    end,
  ].join('\n');
  const current = existsSync(benchmarksFile)
    ? readFileSync(benchmarksFile, 'utf8')
    : '# Benchmarks\n\nEvery figure here was produced by the command shown with it, on the machine described, with its floor or baseline measured in the same run. Machines are shared and noisy: read medians and ratios, not single timings.\n';
  const pattern = new RegExp(`${begin}[\\s\\S]*?${end}`);
  const next = pattern.test(current) ? current.replace(pattern, section) : `${current.trimEnd()}\n\n${section}\n`;
  writeFileSync(benchmarksFile, next);
}
