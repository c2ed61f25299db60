// @pasal/client: a thin layer over openapi-fetch with the types generated from Pasal's OpenAPI
// document. It unwraps the `{ message, data, meta? }` envelope, throws the error envelope as a
// `PasalError` whose `errorCode` is typed, and keeps a session: the access token goes with
// every request, and an expired one is refreshed once (for all requests waiting on it).
import createClient, {
  type Client,
  type FetchResponse,
  type MaybeOptionalInit,
  type Middleware,
} from 'openapi-fetch';
import type { components, operations, paths } from './schema';

export type { components, operations, paths };

type Json = `${string}/${string}`;
type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
type PathsWith<M extends Method> = {
  [P in keyof paths]: paths[P] extends Record<M, infer O> ? (O extends undefined ? never : P) : never;
}[keyof paths];

/** The error envelope every failure answers. */
export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];

/** The `errorCode`s an operation documents, e.g. `ErrorCodeOf<'loginWithEmail'>`. */
export type ErrorCodeOf<Id extends keyof operations> = Extract<
  NonNullable<ErrorBody<operations[Id]>>,
  { errorCode: unknown }
>['errorCode'];
type ErrorBody<O> = O extends { responses: infer R }
  ? {
      [S in keyof R]: S extends `${4 | 5}${string}` | 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429
        ? R[S] extends { content: { 'application/json': infer B } }
          ? B
          : never
        : never;
    }[keyof R]
  : never;

/** A failure answered with the error envelope; branch on `errorCode`. */
export class PasalError<Code extends string = string> extends Error {
  override name = 'PasalError';
  readonly status: number;
  readonly errorCode: Code;
  readonly body: ErrorEnvelope;
  constructor(status: number, body: ErrorEnvelope) {
    super(body.message);
    this.status = status;
    this.errorCode = body.errorCode as Code;
    this.body = body;
  }
}

/** True when `error` is a `PasalError`, optionally with one of `codes`. */
export function isPasalError<Code extends string = string>(
  error: unknown,
  ...codes: Code[]
): error is PasalError<Code> {
  return error instanceof PasalError && (codes.length === 0 || codes.includes(error.errorCode as Code));
}

export interface Tokens {
  sessionId: string;
  accessToken: string;
  refreshToken: string;
}

/** The password step's answer for an admin with two-factor sign-in. */
export type TwoFactorChallenge = components['schemas']['TwoFactorChallenge'];

/**
 * Thrown by `login` when the account has two-factor sign-in: no tokens yet. Answer the
 * challenge with `loginWithSecondFactor`.
 */
export class TwoFactorRequired extends Error {
  override name = 'TwoFactorRequired';
  constructor(readonly challenge: TwoFactorChallenge) {
    super('Two-factor sign-in: answer the challenge with a code');
  }
}

export interface PasalClientOptions {
  /** The API's base URL, e.g. `https://api.example-store.com`. */
  baseUrl: string;
  /** Which sign-in surface refreshes the session: `customer` (`/api/mobile/auth`) or `admin`. */
  surface?: 'customer' | 'admin';
  /** Tokens from an earlier session (e.g. kept in secure storage). */
  tokens?: Tokens;
  /** Called whenever the tokens change (after login, refresh or logout): persist them here. */
  onTokens?: (tokens: Tokens | null) => void;
  /**
   * Seconds within which a refresh whose reply was lost may be retried with the same token
   * (the server's `JWT_REFRESH_REUSE_GRACE_SECONDS`, default 10).
   */
  refreshGraceSeconds?: number;
  /**
   * Admin surface in a browser on the API's own origin (the console): the server keeps the
   * refresh token in an HttpOnly cookie for the refresh route, out of page script's reach, and
   * `refresh()` then works without tokens in memory (a reload resumes the session).
   */
  refreshTokenCookie?: boolean;
  fetch?: typeof globalThis.fetch;
}

// As openapi-fetch's own (not exported): the init argument is optional when nothing in it is required.
type RequiredKeysOf<T> = { [K in keyof T]-?: Record<string, never> extends Pick<T, K> ? never : K }[keyof T];
type InitParam<Init> =
  RequiredKeysOf<Init> extends never
    ? [(Init & { [key: string]: unknown })?]
    : [Init & { [key: string]: unknown }];

type Unwrapped<R> = R extends { data?: infer D } ? NonNullable<D> : never;
type Success<R> = Unwrapped<R> extends { data: infer D } ? D : never;

type UnwrappedMethod<M extends Method> = <P extends PathsWith<M>, I extends MaybeOptionalInit<paths[P], M>>(
  url: P,
  ...init: InitParam<I>
) => Promise<Success<FetchResponse<paths[P][M] & Record<string | number, unknown>, I, Json>>>;

type EnvelopeMethod<M extends Method> = <P extends PathsWith<M>, I extends MaybeOptionalInit<paths[P], M>>(
  url: P,
  ...init: InitParam<I>
) => Promise<Unwrapped<FetchResponse<paths[P][M] & Record<string | number, unknown>, I, Json>>>;

export interface PasalClient {
  /** The `data` of a GET answer; throws `PasalError` on failure. */
  get: UnwrappedMethod<'get'>;
  post: UnwrappedMethod<'post'>;
  put: UnwrappedMethod<'put'>;
  patch: UnwrappedMethod<'patch'>;
  delete: UnwrappedMethod<'delete'>;
  /** The whole success envelope (`message`, `data`, `meta` of lists) of a GET. */
  list: EnvelopeMethod<'get'>;
  /** openapi-fetch itself, with the session: `{ data, error, response }` and typed errors. */
  raw: Client<paths, Json>;
  /** Signs in with email and password on the client's surface and keeps the tokens. */
  login(body: { email: string; password: string; deviceInfo?: Record<string, unknown> }): Promise<Tokens>;
  /** The code step of an admin sign-in (after `TwoFactorRequired`); keeps the tokens. */
  loginWithSecondFactor(
    body: { challengeToken: string; deviceInfo?: Record<string, unknown> } & (
      | { code: string }
      | { recoveryCode: string }
    ),
  ): Promise<Tokens>;
  /** Rotates the tokens now (normally done on demand when the access token has expired). */
  refresh(): Promise<Tokens>;
  /** Ends the session on the server and forgets the tokens. */
  logout(): Promise<void>;
  readonly tokens: Tokens | null;
  setTokens(tokens: Tokens | null): void;
}

const REFRESHED = Symbol('refreshed');

export function createPasalClient(options: PasalClientOptions): PasalClient {
  const authBase = options.surface === 'admin' ? '/api/auth' : '/api/mobile/auth';
  const graceMs = (options.refreshGraceSeconds ?? 10) * 1000;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  let tokens: Tokens | null = options.tokens ?? null;
  let refreshing: Promise<Tokens> | null = null;

  const setTokens = (next: Tokens | null) => {
    tokens = next;
    options.onTokens?.(next);
  };

  const raw = createClient<paths, Json>({ baseUrl: options.baseUrl, fetch: fetchImpl });
  const byCookie = options.refreshTokenCookie === true;
  // Asks the sign-in and refresh routes to answer the refresh token as the cookie.
  const transport: Record<string, string> = byCookie ? { 'x-refresh-token-transport': 'cookie' } : {};

  async function postRefresh(refreshToken: string | undefined): Promise<Tokens> {
    const response = await fetchImpl(`${options.baseUrl}${authBase}/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...transport },
      // By cookie the body names no token: the browser sends the cookie (same origin).
      body: JSON.stringify(byCookie ? {} : { refreshToken }),
      credentials: 'same-origin',
    });
    const body = (await response.json()) as { data: { tokens: Tokens } } & ErrorEnvelope;
    if (!response.ok) throw new PasalError(response.status, body);
    return body.data.tokens;
  }

  /** One refresh at a time: a second refresh with the same token would count as reuse. */
  function refresh(): Promise<Tokens> {
    refreshing ??= (async () => {
      const current = tokens;
      if (!current && !byCookie) throw new PasalError(401, localError('AUTH_UNAUTHORIZED', 'Not signed in'));
      const startedAt = Date.now();
      let next: Tokens;
      try {
        next = await postRefresh(current?.refreshToken);
      } catch (error) {
        // The reply was lost (network failure): the server allows the same token once more
        // within its grace period, and answers a new pair for the same session.
        if (error instanceof PasalError || Date.now() - startedAt >= graceMs) throw endSession(error);
        next = await postRefresh(current?.refreshToken).catch((again) => {
          throw endSession(again);
        });
      }
      setTokens(next);
      return next;
    })().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  function endSession(error: unknown): unknown {
    if (error instanceof PasalError && error.status === 401) setTokens(null);
    return error;
  }

  const session: Middleware = {
    async onRequest({ request }) {
      if (refreshing) await refreshing.catch(() => {});
      if (tokens && !request.headers.has('authorization')) {
        request.headers.set('authorization', `Bearer ${tokens.accessToken}`);
      }
      // Kept for a retry after a refresh: the body can be read only once.
      retryCopies.set(request, request.clone());
      return request;
    },
    async onResponse({ request, response }) {
      const copy = retryCopies.get(request);
      retryCopies.delete(request);
      const sentToken = request.headers.get('authorization')?.replace(/^Bearer /, '');
      if (response.status !== 401 || !copy || !tokens || (request as Tagged)[REFRESHED]) return response;
      const body = (await response.clone().json()) as Partial<ErrorEnvelope>;
      if (body.errorCode !== 'AUTH_UNAUTHORIZED') return response;
      // Another request may have refreshed already while this one was under way.
      const fresh = sentToken === tokens.accessToken ? await refresh() : tokens;
      const retry = new Request(copy, { headers: new Headers(copy.headers) }) as Tagged;
      retry.headers.set('authorization', `Bearer ${fresh.accessToken}`);
      retry[REFRESHED] = true;
      return fetchImpl(retry);
    },
  };
  type Tagged = Request & { [REFRESHED]?: boolean };
  const retryCopies = new WeakMap<Request, Request>();
  raw.use(session);

  async function unwrap(pending: Promise<{ data?: unknown; error?: unknown; response: Response }>) {
    const { data, error, response } = await pending;
    if (error !== undefined || !response.ok) {
      throw new PasalError(
        response.status,
        (error ?? localError('UNKNOWN', response.statusText)) as ErrorEnvelope,
      );
    }
    return data as { data: unknown };
  }

  const method =
    (name: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', whole = false) =>
    async (url: string, init?: unknown) => {
      const envelope = await unwrap((raw[name] as (u: string, i?: unknown) => Promise<never>)(url, init));
      return whole ? envelope : envelope?.data;
    };

  return {
    get: method('GET') as never,
    post: method('POST') as never,
    put: method('PUT') as never,
    patch: method('PATCH') as never,
    delete: method('DELETE') as never,
    list: method('GET', true) as never,
    raw,
    async login(body) {
      const url = options.surface === 'admin' ? '/api/auth/login/email' : '/api/mobile/auth/login/email';
      const { data } = (await unwrap(raw.POST(url, { body: body as never, headers: transport }))) as {
        data: { tokens: Tokens } | TwoFactorChallenge;
      };
      if ('twoFactorRequired' in data) throw new TwoFactorRequired(data);
      setTokens(data.tokens);
      return data.tokens;
    },
    async loginWithSecondFactor(body) {
      const { data } = (await unwrap(
        raw.POST('/api/auth/login/2fa', { body: body as never, headers: transport }),
      )) as {
        data: { tokens: Tokens };
      };
      setTokens(data.tokens);
      return data.tokens;
    },
    refresh,
    async logout() {
      const url = options.surface === 'admin' ? '/api/auth/logout' : '/api/mobile/auth/logout';
      try {
        if (tokens) await unwrap(raw.DELETE(url));
      } finally {
        setTokens(null);
      }
    },
    get tokens() {
      return tokens;
    },
    setTokens,
  };
}

function localError(errorCode: string, message: string): ErrorEnvelope {
  return { statusCode: 0, errorCode, message, timestamp: new Date().toISOString(), path: '' };
}
