// Local stand-ins for the SMS and push providers, each following its published protocol
// (fields, authentication, answers and error shapes) closely enough that the adapters are
// tested against what the real service says. Each listens on 127.0.0.1, port 0.
//   Sparrow SMS v2   docs.sparrowsms.com "Send SMS"
//   Aakash SMS v3    POST /sms/v3/send/ (auth_token, to, text; HTTP 200 with `error`)
//   FCM HTTP v1      Google's JWT-bearer token endpoint + projects/{id}/messages:send
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportPKCS8, exportSPKI, generateKeyPair, importSPKI, jwtVerify } from 'jose';

export interface ScriptedAnswer {
  status: number;
  body?: unknown;
  /** Never answer (to test the adapter's timeout). */
  hang?: boolean;
}

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  /** Form fields (SMS providers, token endpoint) or the parsed JSON body (FCM send). */
  body: Record<string, unknown>;
  /** The raw bytes as text: what the provider would store. */
  raw: string;
  /** What the fake answered. */
  answer?: ScriptedAnswer;
}

interface FakeServer {
  url: string;
  received: Received[];
  /** Answers to give, in order, before the fake goes back to following the protocol. */
  answerNext(...answers: ScriptedAnswer[]): void;
  close(): Promise<void>;
}

async function listen(
  handle: (
    req: Received,
    res: ServerResponse,
  ) => ScriptedAnswer | undefined | Promise<ScriptedAnswer | undefined>,
): Promise<FakeServer & { server: Server }> {
  const received: Received[] = [];
  const scripted: ScriptedAnswer[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const type = req.headers['content-type'] ?? '';
      const body: Record<string, unknown> = type.startsWith('application/json')
        ? JSON.parse(raw || '{}')
        : Object.fromEntries(new URLSearchParams(raw));
      const entry: Received = { path: req.url ?? '/', headers: req.headers, body, raw };
      received.push(entry);
      const answer = scripted.shift() ?? (await handle(entry, res));
      if (!answer) return;
      entry.answer = answer;
      if (answer.hang) {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    received,
    answerNext: (...answers) => scripted.push(...answers),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Comma separated 10-digit mobile numbers, as both Nepali providers document `to`. */
const tenDigitNumbers = (to: unknown) =>
  typeof to === 'string' && to.split(',').every((n) => /^9\d{9}$/.test(n.trim()));

// ---------- Sparrow SMS ----------

export const SPARROW_TOKEN = 'sparrow-test-token-0123456789';
export const SPARROW_FROM = 'PasalAlert';

export async function startFakeSparrow() {
  const fake = await listen((req) => {
    if (req.path !== '/v2/sms/') return { status: 404, body: { detail: 'Not found' } };
    const { token, from, to, text } = req.body;
    const refuse = (response_code: number, response: string) => ({
      status: 403,
      body: { response_code, response },
    });
    if (!token || !from || !to || text === undefined) return refuse(1000, 'A required field is missing');
    if (token !== SPARROW_TOKEN) return refuse(1002, 'Invalid Token');
    if (from !== SPARROW_FROM) return refuse(1008, 'Invalid Sender');
    if (text === '') return refuse(1010, 'Text cannot be empty');
    if (!tenDigitNumbers(to)) return refuse(1011, 'No valid receiver');
    const count = String(to).split(',').length;
    return {
      status: 200,
      body: { count, response_code: 200, response: `${count} mesages has been queued for delivery` },
    };
  });
  /** Messages Sparrow queued for delivery (answered response_code 200). */
  const sent = () =>
    fake.received
      .filter((r) => (r.answer?.body as { response_code?: number } | undefined)?.response_code === 200)
      .map((r) => ({ to: String(r.body.to), text: String(r.body.text) }));
  return { ...fake, sendUrl: `${fake.url}/v2/sms/`, sent };
}

export const sparrowRefusal = (response_code: number, response: string): ScriptedAnswer => ({
  status: 403,
  body: { response_code, response },
});

// ---------- Aakash SMS ----------

export const AAKASH_TOKEN = 'aakash-test-auth-token-0123456789abcdef';

export async function startFakeAakash() {
  let nextId = 2_673_160;
  const fake = await listen((req) => {
    if (req.path !== '/sms/v3/send/') return { status: 404, body: { error: true, message: 'Not found' } };
    const { auth_token, to, text } = req.body;
    const refuse = (message: string) => ({ status: 200, body: { error: true, message, data: [] } });
    if (!auth_token) return refuse('The auth token field is required.');
    if (auth_token !== AAKASH_TOKEN) return refuse('The provided Auth Token is not valid.');
    if (!to) return refuse('The to field is required.');
    if (!text) return refuse('The text field is required.');
    const numbers = String(to).split(',');
    const valid = numbers
      .filter((n) => /^9\d{9}$/.test(n))
      .map((mobile) => ({
        id: nextId++,
        mobile: `977${mobile}`,
        text,
        credit: 1,
        network: 'ncell',
        status: 'queued',
      }));
    const invalid = numbers
      .filter((n) => !/^9\d{9}$/.test(n))
      .map((mobile) => ({ mobile, text, credit: 0, network: 'N/A', status: 'aborted' }));
    return {
      status: 200,
      body: {
        error: false,
        message: `${valid.length} messages has been queued for delivery.`,
        data: { valid, invalid },
      },
    };
  });
  /** Messages Aakash queued for delivery (answered `error: false`). */
  const sent = () =>
    fake.received
      .filter((r) => (r.answer?.body as { error?: boolean } | undefined)?.error === false)
      .map((r) => ({ to: String(r.body.to), text: String(r.body.text) }));
  return { ...fake, sendUrl: `${fake.url}/sms/v3/send/`, sent };
}

// ---------- Firebase Cloud Messaging ----------

const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';

export interface FakeFcm extends FakeServer {
  /** The service account key (JSON text) whose public half the token endpoint trusts. */
  serviceAccountJson: string;
  projectId: string;
  /** Tokens FCM answers UNREGISTERED for. */
  unregistered: Set<string>;
  /** Tokens FCM answers "not a valid FCM registration token" for. */
  malformed: Set<string>;
  /** Messages FCM accepted, in order. */
  delivered: Array<{
    token: string;
    notification: { title: string; body: string };
    data?: Record<string, string>;
  }>;
  tokenRequests(): number;
  sendRequests(): Received[];
  /** Makes every access token issued so far invalid (answers 401 UNAUTHENTICATED). */
  revokeAccessTokens(): void;
}

const fcmError = (code: number, status: string, message: string, errorCode?: string) => ({
  status: code,
  body: {
    error: {
      code,
      message,
      status,
      details: errorCode
        ? [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode }]
        : [],
    },
  },
});

export async function startFakeFcm(opts: { accessTokenLifetimeSeconds?: number } = {}): Promise<FakeFcm> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  // Through SPKI text, as Google publishes the account's certificate: the fake trusts only it.
  const trusted = await importSPKI(await exportSPKI(publicKey), 'RS256');
  const projectId = 'pasal-test';
  const clientEmail = `pasal-push@${projectId}.iam.gserviceaccount.com`;
  const accessTokens = new Set<string>();
  const unregistered = new Set<string>();
  const malformed = new Set<string>();
  const delivered: FakeFcm['delivered'] = [];
  let tokenUri = '';

  const fake = await listen(async (req) => {
    if (req.path === '/token') {
      const invalidGrant = (description: string) => ({
        status: 400,
        body: { error: 'invalid_grant', error_description: description },
      });
      if (req.body.grant_type !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
        return {
          status: 400,
          body: { error: 'unsupported_grant_type', error_description: 'Invalid grant_type' },
        };
      }
      try {
        const { payload, protectedHeader } = await jwtVerify(String(req.body.assertion), trusted, {
          issuer: clientEmail,
          audience: tokenUri,
          algorithms: ['RS256'],
        });
        if (protectedHeader.kid !== 'test-key-1') return invalidGrant('Invalid JWT Signature.');
        if (
          typeof payload.iat !== 'number' ||
          typeof payload.exp !== 'number' ||
          payload.exp - payload.iat > 3600
        ) {
          return invalidGrant('Invalid JWT: Token must be a short-lived token (60 minutes)');
        }
        if (
          !String(payload.scope ?? '')
            .split(' ')
            .includes(FCM_SCOPE)
        ) {
          return { status: 400, body: { error: 'invalid_scope', error_description: 'Invalid OAuth scope' } };
        }
      } catch {
        return invalidGrant('Invalid JWT Signature.');
      }
      const accessToken = `ya29.${randomBytes(16).toString('hex')}`;
      accessTokens.add(accessToken);
      return {
        status: 200,
        body: {
          access_token: accessToken,
          expires_in: opts.accessTokenLifetimeSeconds ?? 3599,
          token_type: 'Bearer',
        },
      };
    }
    if (req.path === `/v1/projects/${projectId}/messages:send`) {
      const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
      if (!bearer || !accessTokens.has(bearer)) {
        return fcmError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
      }
      const message = (req.body.message ?? {}) as FakeFcm['delivered'][number];
      for (const [key, value] of Object.entries(message.data ?? {})) {
        if (typeof value !== 'string') {
          return {
            status: 400,
            body: {
              error: {
                code: 400,
                message: `Invalid value at 'message.data[0].value' (TYPE_STRING), ${String(value)}`,
                status: 'INVALID_ARGUMENT',
                details: [
                  {
                    '@type': 'type.googleapis.com/google.rpc.BadRequest',
                    fieldViolations: [{ field: `message.data[${key}].value`, description: 'Invalid value' }],
                  },
                ],
              },
            },
          };
        }
      }
      if (unregistered.has(message.token)) {
        return fcmError(404, 'NOT_FOUND', 'Requested entity was not found.', 'UNREGISTERED');
      }
      if (malformed.has(message.token)) {
        return fcmError(
          400,
          'INVALID_ARGUMENT',
          'The registration token is not a valid FCM registration token',
          'INVALID_ARGUMENT',
        );
      }
      delivered.push(message);
      return { status: 200, body: { name: `projects/${projectId}/messages/0:${delivered.length}` } };
    }
    return { status: 404, body: { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } } };
  });
  tokenUri = `${fake.url}/token`;
  const serviceAccountJson = JSON.stringify({
    type: 'service_account',
    project_id: projectId,
    private_key_id: 'test-key-1',
    private_key: await exportPKCS8(privateKey),
    client_email: clientEmail,
    client_id: '100000000000000000001',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: tokenUri,
  });
  return {
    ...fake,
    serviceAccountJson,
    projectId,
    unregistered,
    malformed,
    delivered,
    tokenRequests: () => fake.received.filter((r) => r.path === '/token').length,
    sendRequests: () => fake.received.filter((r) => r.path.endsWith('/messages:send')),
    revokeAccessTokens: () => accessTokens.clear(),
  };
}

export { fcmError };
