/**
 * Serves the console (console/, docs/console.md) at /console: one HTML page and its hashed
 * script and style files, built from the TypeScript sources with esbuild the first time a
 * process needs them (or when `buildConsole()` is called at start) and held in memory.
 *
 * Invariants:
 * - Nothing is read from disk per request: a request path is looked up, as sent, in the map
 *   of built files, so no path (`..`, encoded slashes, NUL) can reach another file.
 * - Files under /console/assets/ are named by their content hash and cached for a year
 *   (immutable); the page itself is revalidated (no-cache + ETag), so a new build is seen at
 *   once. Every answer carries an ETag; If-None-Match gives 304.
 * - Text is gzipped once at build time and served gzipped when the client accepts it.
 * - A path under /console that is not a built file is not answered here: the venue API answers
 *   it (its 404 envelope), as it does any unknown path; so are methods other than GET and HEAD.
 *
 * Limits: the build runs once per process (a source edit needs a restart); a build failure is
 * logged and answered 503 until the process restarts.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const CONSOLE_PATH = '/console';
const ASSET_PREFIX = `${CONSOLE_PATH}/assets/`;
const CONSOLE_DIR = fileURLToPath(new URL('../../console/', import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** The page may load only its own files and talk only to its own origin (HTTP and WebSocket). */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

interface ConsoleFile {
  contentType: string;
  body: Buffer;
  gzipped: Buffer | null;
  etag: string;
  immutable: boolean;
}

export interface ConsoleBuild {
  /** Path → file, paths as requested (`/console`, `/console/assets/main-XXXX.js`). */
  files: Map<string, ConsoleFile>;
  /** Bytes of the page and its first-load assets, gzipped where served so. */
  pageTransferBytes: number;
}

function consoleFile(contentType: string, body: Buffer, immutable: boolean): ConsoleFile {
  const compressible = /^(text\/|image\/svg)/.test(contentType);
  const gzipped = compressible ? gzipSync(body, { level: 9 }) : null;
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return {
    contentType,
    body,
    gzipped: gzipped && gzipped.length < body.length ? gzipped : null,
    etag,
    immutable,
  };
}

function pageHtml(
  template: string,
  assets: { scripts: string[]; preloads: string[]; styles: string[] },
): string {
  const tags = [
    ...assets.styles.map((href) => `<link rel="stylesheet" href="${href}">`),
    ...assets.preloads.map((href) => `<link rel="modulepreload" href="${href}">`),
    ...assets.scripts.map((src) => `<script type="module" src="${src}"></script>`),
  ];
  return template.replace('<!-- assets -->', tags.join('\n    '));
}

async function build(): Promise<ConsoleBuild> {
  // esbuild is loaded only when the console is asked for: servers that never serve it pay nothing.
  const esbuild = await import('esbuild');
  const { readFile } = await import('node:fs/promises');
  const result = await esbuild.build({
    absWorkingDir: CONSOLE_DIR,
    entryPoints: ['src/main.tsx'],
    bundle: true,
    splitting: true,
    format: 'esm',
    target: ['es2022'],
    minify: true,
    write: false,
    outdir: 'out',
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    loader: { '.woff2': 'file', '.svg': 'file' },
    legalComments: 'none',
    logLevel: 'silent',
    metafile: true,
  });
  const files = new Map<string, ConsoleFile>();
  for (const output of result.outputFiles) {
    const name = basename(output.path);
    const contentType = CONTENT_TYPES[extname(name)] ?? 'application/octet-stream';
    files.set(`${ASSET_PREFIX}${name}`, consoleFile(contentType, Buffer.from(output.contents), true));
  }
  // The entry, the chunks it imports statically and its stylesheet load with the page (the
  // scripts as module preloads); the charts' chunk loads when a market is opened.
  const outputs = result.metafile.outputs;
  const entry = Object.keys(outputs).find((path) => outputs[path]?.entryPoint !== undefined) ?? '';
  const assetPath = (path: string) => `${ASSET_PREFIX}${basename(path)}`;
  const firstLoad = {
    scripts: [assetPath(entry)],
    preloads: (outputs[entry]?.imports ?? [])
      .filter((item) => item.kind === 'import-statement')
      .map((item) => assetPath(item.path)),
    styles: outputs[entry]?.cssBundle ? [assetPath(outputs[entry].cssBundle)] : [],
  };
  let pageTransferBytes = 0;
  for (const path of [...firstLoad.scripts, ...firstLoad.preloads, ...firstLoad.styles]) {
    const file = files.get(path);
    if (file) pageTransferBytes += (file.gzipped ?? file.body).length;
  }
  const template = await readFile(`${CONSOLE_DIR}index.html`, 'utf8');
  const page = consoleFile(
    CONTENT_TYPES['.html'] as string,
    Buffer.from(pageHtml(template, firstLoad)),
    false,
  );
  files.set(CONSOLE_PATH, page);
  files.set(`${CONSOLE_PATH}/`, page);
  pageTransferBytes += (page.gzipped ?? page.body).length;
  return { files, pageTransferBytes };
}

let building: Promise<ConsoleBuild> | null = null;

/** The console's files, built once per process; the same promise for every caller. */
export function buildConsole(): Promise<ConsoleBuild> {
  building ??= build();
  return building;
}

/** Whether a request target is the console's (the HTTP/1.1 fast path hands these to node:http). */
export function isConsolePath(url: string): boolean {
  return url === CONSOLE_PATH || url.startsWith(`${CONSOLE_PATH}/`) || url.startsWith(`${CONSOLE_PATH}?`);
}

function accepts(request: IncomingMessage, encoding: string): boolean {
  const header = request.headers['accept-encoding'];
  return (
    typeof header === 'string' && header.split(',').some((part) => part.trim().split(';')[0] === encoding)
  );
}

function send(request: IncomingMessage, response: ServerResponse, file: ConsoleFile): void {
  const headers: Record<string, string | number> = {
    ...SECURITY_HEADERS,
    'content-type': file.contentType,
    etag: file.etag,
    'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    vary: 'accept-encoding',
  };
  if (request.headers['if-none-match'] === file.etag) {
    response.writeHead(304, headers);
    response.end();
    return;
  }
  const body = file.gzipped && accepts(request, 'gzip') ? file.gzipped : file.body;
  if (body === file.gzipped) headers['content-encoding'] = 'gzip';
  headers['content-length'] = body.length;
  response.writeHead(200, headers);
  response.end(request.method === 'HEAD' ? undefined : body);
}

/**
 * Answers a GET or HEAD of a console file; anything else goes to `next` (the venue API's
 * router, which answers an unknown path with its 404 envelope). The query string is ignored.
 */
export function serveConsole(
  request: IncomingMessage,
  response: ServerResponse,
  next: () => void,
  onError: (error: unknown) => void,
): void {
  const url = request.url ?? '';
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  const mayBeFile = path === CONSOLE_PATH || path === `${CONSOLE_PATH}/` || path.startsWith(ASSET_PREFIX);
  if ((request.method !== 'GET' && request.method !== 'HEAD') || !mayBeFile) return next();
  buildConsole().then(
    ({ files }) => {
      const file = files.get(path);
      if (file) send(request, response, file);
      else next();
    },
    (error: unknown) => {
      onError(error);
      response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '60' });
      response.end('the console could not be built; see the server log\n');
    },
  );
}
