// The admin console (the React app in console/, built by Vite into console/dist) served at
// /admin by the API process, so a store needs nothing but `npm start` for its back office.
// Files come from @fastify/static (path checks, ETag, Last-Modified, ranges); this file adds
// what a single-page app needs: hashed assets cached for a year, index.html never cached, any
// other path under /admin answered with index.html (the app's own routes), and a
// Content-Security-Policy without inline scripts. The routes sit outside the API scope, are
// hidden from the OpenAPI document and add no hook to the API's routes.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { sendError } from './error-handler';
import { AppError, httpErrors } from './errors';
import { helmetHeaders } from './security-headers';

export const CONSOLE_PREFIX = '/admin';

/** Vite writes every hashed file here (`build.assetsDir`), so only these may be cached for good. */
const ASSETS_DIR = 'assets';
const IMMUTABLE = 'public, max-age=31536000, immutable';
// Revalidated on every load (ETag / Last-Modified make that a 304), so a new build shows at once.
const REVALIDATE = 'no-cache';

export const consoleErrors = {
  notBuilt: () =>
    new AppError(
      503,
      'CONSOLE_NOT_BUILT',
      'The admin console has not been built: run `npm run build` (or `npm start`, which builds it) and restart the server',
    ),
};

/**
 * `console/dist` of this checkout, found from the running file: src/platform/http/ under tsx
 * and vitest, dist/ for the bundled `node dist/main.js`. The project root is the nearest folder
 * with a package.json above it.
 */
export function defaultConsoleDir(from = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve('console', 'dist'); // not in a checkout: the working directory
    dir = parent;
  }
  return path.join(dir, 'console', 'dist');
}

export interface ConsoleOptions {
  /** The built console (the folder holding index.html). */
  dir: string;
  /** `PUBLIC_BASE_URL`: the API's own origin, for calls and the realtime socket. */
  publicBaseUrl: string;
  /** Where uploaded images are loaded from (`Storage.browserOrigins`). */
  fileOrigins: readonly string[];
  log: Pick<Logger, 'warn'>;
  now: () => Date;
}

/**
 * The console's policy: scripts only from this server (Vite emits no inline script); styles
 * may be inline because Mantine injects style tags; images also from the storage's origins;
 * calls and the Socket.IO connection to this server (ws/wss named too: older browsers do not
 * count them as 'self'); never framed.
 */
export function consoleContentSecurityPolicy(options: Pick<ConsoleOptions, 'publicBaseUrl' | 'fileOrigins'>) {
  const api = new URL(options.publicBaseUrl);
  const socket = `${api.protocol === 'https:' ? 'wss:' : 'ws:'}//${api.host}`;
  const unique = (values: string[]) => [...new Set(values)];
  const headers = helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: unique(["'self'", 'data:', 'blob:', api.origin, ...options.fileOrigins]),
        fontSrc: ["'self'", 'data:'],
        connectSrc: unique(["'self'", api.origin, socket]),
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  });
  const policy = headers['content-security-policy'];
  if (!policy) throw new Error('helmet wrote no Content-Security-Policy for the console');
  return policy;
}

function isHashedAsset(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return relative.startsWith(`${ASSETS_DIR}${path.sep}`);
}

/**
 * Paths the app's router never uses: its hashed files, and anything that names a file
 * (`/admin/favicon.ico`). A missing one is a 404, not the app: a script tag that received
 * index.html would fail with a confusing MIME error instead.
 */
function namesAFile(url: string): boolean {
  const pathname = url.split('?')[0] ?? url;
  const assets = `${CONSOLE_PREFIX}/${ASSETS_DIR}`;
  if (pathname === assets || pathname.startsWith(`${assets}/`)) return true;
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return /\.[A-Za-z0-9]{1,8}$/.test(last);
}

/** Registers /admin: the built console, or a 503 `CONSOLE_NOT_BUILT` when there is no build. */
export async function registerConsole(app: FastifyInstance, options: ConsoleOptions): Promise<void> {
  const { dir, now } = options;
  const indexFile = path.join(dir, 'index.html');

  if (!existsSync(indexFile)) {
    options.log.warn(
      { dir },
      'admin console not built: /admin answers 503 CONSOLE_NOT_BUILT (run `npm run build`, or set CONSOLE_ENABLED=false)',
    );
    const notBuilt = async () => {
      throw consoleErrors.notBuilt();
    };
    app.get(CONSOLE_PREFIX, { schema: { hide: true } }, notBuilt);
    app.get(`${CONSOLE_PREFIX}/*`, { schema: { hide: true } }, notBuilt);
    return;
  }
  // A build without its entry's scripts would answer a blank page: say so at start-up.
  if (!readFileSync(indexFile, 'utf8').includes(`${CONSOLE_PREFIX}/`)) {
    options.log.warn(
      { dir },
      "admin console's index.html names no /admin/ file: was it built with base '/admin/'?",
    );
  }

  const policy = consoleContentSecurityPolicy(options);
  await app.register(
    async (scope) => {
      // Only the console's answers pass here; the API's routes keep their own headers.
      scope.addHook('onRequest', (_request, reply, done) => {
        reply.header('content-security-policy', policy);
        reply.header('x-frame-options', 'DENY');
        done();
      });
      // /admin itself: to /admin/, so the app's relative URLs resolve under it.
      scope.get('', { schema: { hide: true } }, (request, reply) => {
        const query = request.url.indexOf('?');
        return reply.redirect(`${CONSOLE_PREFIX}/${query < 0 ? '' : request.url.slice(query)}`, 301);
      });
      await scope.register(fastifyStatic, {
        root: dir,
        prefix: '/',
        index: ['index.html'],
        dotfiles: 'ignore',
        // Set per file below: send's own would be `max-age=0` for all.
        cacheControl: false,
        setHeaders: (reply, file) => {
          reply.header('cache-control', isHashedAsset(dir, file) ? IMMUTABLE : REVALIDATE);
        },
      });
      // The app's own routes (a deep link, a reload on /admin/orders/123) are index.html; the
      // router in the browser shows the screen.
      scope.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
        const read = request.method === 'GET' || request.method === 'HEAD';
        if (!read || namesAFile(request.url)) {
          return sendError(reply, request, httpErrors.routeNotFound(request.method, request.url), now());
        }
        return reply.sendFile('index.html');
      });
    },
    { prefix: CONSOLE_PREFIX },
  );
}
