/** The web inspector's static files (inspector/), served by the local API server at /inspector/. */
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';

const FILES: Readonly<Record<string, string>> = {
  '': 'text/html; charset=utf-8',
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'inspector.css': 'text/css; charset=utf-8',
};

export function isInspectorPath(pathname: string): boolean {
  return pathname === '/inspector' || pathname.startsWith('/inspector/');
}

/** Only the files listed above are served: no path from the request reaches the file system. */
export async function serveInspector(pathname: string, response: ServerResponse): Promise<void> {
  if (pathname === '/inspector') {
    response.writeHead(301, { location: '/inspector/' }).end();
    return;
  }
  const name = pathname.slice('/inspector/'.length);
  const type = FILES[name];
  if (type === undefined) {
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
    return;
  }
  const body = await readFile(new URL(`../inspector/${name || 'index.html'}`, import.meta.url));
  response.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' }).end(body);
}
