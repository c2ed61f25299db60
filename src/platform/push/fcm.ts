// Firebase Cloud Messaging, HTTP v1 API: POST {FCM_BASE_URL}/v1/projects/{project_id}/messages:send
// with `{ message: { token, notification: { title, body }, data } }` (data values are strings).
// Authorised by an OAuth access token that the service account gets from its own `token_uri`
// with the JWT-bearer grant (RFC 7523, Google's "OAuth 2.0 for Server to Server Applications"),
// kept until shortly before it expires. A token FCM reports as UNREGISTERED, invalid or of
// another sender is a `PushTokenRejected`, so the delivery job can forget it.
import { importPKCS8, SignJWT } from 'jose';
import {
  isRetryableStatus,
  ProviderRefusal,
  ProviderUnavailable,
  postForm,
  postToProvider,
} from '../delivery/provider-http';
import { type PushMessage, type PushSender, PushTokenRejected } from './push';
import type { ServiceAccount } from './service-account';

const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** Google accepts assertions of at most one hour. */
const ASSERTION_TTL_S = 3600;
/** A cached access token is replaced this long before it expires, so none expires in flight. */
const TOKEN_REFRESH_MARGIN_MS = 5 * 60_000;

interface FcmErrorBody {
  error?: {
    code?: number;
    message?: string;
    status?: string;
    details?: Array<{ '@type'?: string; errorCode?: string; fieldViolations?: Array<{ field?: string }> }>;
  };
}

/** FCM's `errorCode` (FcmError detail) and whether a BadRequest names a field other than the token. */
function readFcmError(body: unknown) {
  const error = (body as FcmErrorBody | undefined)?.error;
  const details = error?.details ?? [];
  const errorCode = details.find((d) => d['@type']?.endsWith('google.firebase.fcm.v1.FcmError'))?.errorCode;
  const otherField = details.some((d) =>
    (d.fieldViolations ?? []).some((v) => v.field !== undefined && v.field !== 'message.token'),
  );
  return { errorCode, status: error?.status, message: error?.message ?? 'no message', otherField };
}

/** data values must be strings in FCM: non-strings travel as JSON. */
const stringData = (data: Record<string, unknown> | undefined) =>
  data
    ? Object.fromEntries(
        Object.entries(data).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
      )
    : undefined;

export function createFcmPush(opts: {
  account: ServiceAccount;
  baseUrl: string;
  timeoutMs: number;
  now?: () => number;
}): PushSender & { accessTokenRequests(): number } {
  const now = opts.now ?? Date.now;
  const { account } = opts;
  let cached: { token: string; refreshAt: number } | undefined;
  let pending: Promise<string> | undefined;
  let tokenRequests = 0;
  const sendUrl = `${opts.baseUrl.replace(/\/+$/, '')}/v1/projects/${encodeURIComponent(account.project_id)}/messages:send`;

  async function fetchAccessToken(): Promise<string> {
    tokenRequests++;
    const issuedAt = Math.floor(now() / 1000);
    let assertion: string;
    try {
      const key = await importPKCS8(account.private_key, 'RS256');
      assertion = await new SignJWT({ scope: FCM_SCOPE })
        .setProtectedHeader({
          alg: 'RS256',
          typ: 'JWT',
          ...(account.private_key_id ? { kid: account.private_key_id } : {}),
        })
        .setIssuer(account.client_email)
        .setAudience(account.token_uri)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ASSERTION_TTL_S)
        .sign(key);
    } catch {
      throw new ProviderRefusal('fcm', 'the service account private key cannot sign');
    }
    const { status, body } = await postForm(
      'fcm',
      account.token_uri,
      { grant_type: JWT_BEARER, assertion },
      opts.timeoutMs,
    );
    const answer = (body ?? {}) as {
      access_token?: unknown;
      expires_in?: unknown;
      error?: unknown;
      error_description?: unknown;
    };
    if (status === 200 && typeof answer.access_token === 'string') {
      const lifetimeMs = (typeof answer.expires_in === 'number' ? answer.expires_in : 3600) * 1000;
      cached = {
        token: answer.access_token,
        refreshAt: now() + Math.max(0, lifetimeMs - TOKEN_REFRESH_MARGIN_MS),
      };
      return answer.access_token;
    }
    if (isRetryableStatus(status) || typeof answer.error !== 'string') {
      throw new ProviderUnavailable('fcm', `access token endpoint answered HTTP ${status}`);
    }
    // invalid_grant, invalid_client, unauthorized_client: the account or its key is wrong.
    throw new ProviderRefusal(
      'fcm',
      `access token refused: ${answer.error} (${String(answer.error_description ?? '')})`,
    );
  }

  async function accessToken(): Promise<string> {
    if (cached && now() < cached.refreshAt) return cached.token;
    // One request for every send that finds the token stale at the same time.
    pending ??= fetchAccessToken().finally(() => {
      pending = undefined;
    });
    return pending;
  }

  async function send(message: PushMessage): Promise<void> {
    const token = await accessToken();
    const { status, body } = await postToProvider(
      'fcm',
      sendUrl,
      {
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json; charset=utf-8',
          accept: 'application/json',
        },
        body: JSON.stringify({
          message: {
            token: message.to,
            notification: { title: message.title, body: message.body },
            data: stringData(message.data),
          },
        }),
      },
      opts.timeoutMs,
    );
    if (status === 200) return;
    const error = readFcmError(body);
    const reason = `${error.errorCode ?? error.status ?? `HTTP ${status}`}: ${error.message}`;
    if (error.errorCode === 'UNREGISTERED' || error.errorCode === 'SENDER_ID_MISMATCH') {
      throw new PushTokenRejected(message.to, 'fcm', reason);
    }
    // FCM's INVALID_ARGUMENT covers both a malformed token and a malformed message; only the
    // first (no BadRequest naming another field) says the token is dead.
    if (error.errorCode === 'INVALID_ARGUMENT' && !error.otherField)
      throw new PushTokenRejected(message.to, 'fcm', reason);
    if (status === 401 && error.errorCode !== 'THIRD_PARTY_AUTH_ERROR') {
      // Our access token was revoked or expired early: get a new one on the next try.
      cached = undefined;
      throw new ProviderUnavailable('fcm', reason);
    }
    if (isRetryableStatus(status)) throw new ProviderUnavailable('fcm', reason);
    throw new ProviderRefusal('fcm', reason);
  }

  return { driver: 'fcm', send, accessTokenRequests: () => tokenRequests };
}
