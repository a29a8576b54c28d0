/**
 * `GET /v1/agents/{agentId}/export[?nextToken=...]` (admin): everything of the
 * agent as NDJSON (`application/x-ndjson`; see use-cases/export-agent.ts).
 * A part holds at most `maxPartBytes` (default 4.5 MB, inside API Gateway's
 * 6 MB response limit); a part that stops early ends with
 * `{"type":"continue","nextToken":"..."}`, and the export is complete at the
 * `{"type":"end","counts":{...}}` line.
 */
import { httpRouter } from '../../commons/http.js';
import type { PageTokenSeal } from '../../commons/page-tokens.js';
import { decodeExportCursor, encodeExportCursor, exportAgent, type ExportCursor, type ExportDependencies } from '../../use-cases/export-agent.js';

export const MAX_EXPORT_PART_BYTES = 4_500_000;

export function createExportHandler(deps: ExportDependencies & { readonly pageTokens: PageTokenSeal; readonly maxPartBytes?: number }) {
  const maxBytes = deps.maxPartBytes ?? MAX_EXPORT_PART_BYTES;
  return httpRouter('Export', {
    exportAgent: async ({ event, agent }) => {
      const token = event.queryStringParameters?.nextToken;
      const cursor = token ? decodeExportCursor(await deps.pageTokens.open(agent, 'export', token)) : undefined;
      const lines: string[] = [];
      let bytes = 0;
      let resumeAfterLast: ExportCursor | undefined;
      for await (const { line, resume } of exportAgent(deps, agent, cursor)) {
        const text = JSON.stringify(line);
        const size = Buffer.byteLength(text) + 1;
        // Always at least one line per part, so a very large line cannot stall the export.
        if (lines.length > 0 && bytes + size > maxBytes) {
          lines.push(JSON.stringify({ type: 'continue', nextToken: await deps.pageTokens.seal(agent, 'export', encodeExportCursor(resumeAfterLast!)) }));
          break;
        }
        lines.push(text);
        bytes += size;
        resumeAfterLast = resume;
      }
      return { statusCode: 200, headers: { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' }, body: `${lines.join('\n')}\n` };
    },
  });
}
