// The server's whole configuration, read once from the environment: the shared settings here,
// each module's own in its `<module>.config.ts` (spread in below). Each setting carries its
// own documentation so the README table and `.env.example` can be checked against it (see
// test/platform/config.test.ts): a setting that is not documented fails the tests.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { z } from 'zod';
import { backupSettings } from './modules/backups/backups.config';
import { bannerSettings } from './modules/banners/banners.config';
import { blogSettings } from './modules/blog/blog.config';
import { cartSettings } from './modules/cart/cart.config';
import { catalogSettings } from './modules/catalog/catalog.config';
import { contentSettings } from './modules/content/content.config';
import { emiSettings } from './modules/emi/emi.config';
import { checkIdentitySettings, identitySettings } from './modules/identity/identity.config';
import { checkInvoiceSettings, invoiceSettings } from './modules/invoices/invoices.config';
import { orderSettings } from './modules/orders/orders.config';
import { checkPaymentSettings, paymentSettings } from './modules/payments/payments.config';
import { supportSettings } from './modules/support/support.config';
import { webhookSettings } from './modules/webhooks/webhooks.config';
import { FCM_DEFAULT_BASE_URL } from './platform/push/fcm-defaults';
import { readServiceAccount } from './platform/push/service-account';
import { bool, csv, int, isTimeZone, optionalString, type Setting, setting } from './platform/settings';
import { AAKASH_SMS_DEFAULT_URL, SPARROW_SMS_DEFAULT_URL } from './platform/sms/provider-urls';

// Each module's own settings are in its `<module>.config.ts`; these names stay importable here.
export {
  ESEWA_TEST_PRODUCT_CODE,
  ESEWA_TEST_SECRET_KEY,
  PAYMENT_GATEWAY_SETTINGS,
  PAYMENT_PROVIDERS,
  type PaymentProvider,
  paymentGatewayProviders,
} from './modules/payments/payments.config';

export const settings = {
  NODE_ENV: setting({
    doc: '`development`, `test` or `production`. Production requires the secrets below to be set.',
    schema: z.enum(['development', 'test', 'production']),
    default: 'development',
  }),
  PORT: setting({ doc: 'HTTP port of the API.', schema: int(0, 65535), default: '3000' }),
  HOST: setting({ doc: 'Address the API listens on.', schema: z.string().min(1), default: '0.0.0.0' }),
  PUBLIC_BASE_URL: setting({
    doc: 'Public URL of this API, used in links it generates (file URLs, payment redirects). Defaults to `http://localhost:$PORT`.',
    schema: optionalString.pipe(z.url().optional()),
    example: 'https://api.example.com',
  }),
  PUBLIC_WEB_URL: setting({
    doc: 'Public URL of the storefront, used in links inside emails.',
    schema: z.url(),
    default: 'http://localhost:3001',
  }),
  DATA_DIR: setting({
    doc: 'Folder for the embedded database, generated dev secrets, the mail and SMS outbox and local uploads.',
    schema: z.string().min(1),
    default: './data',
  }),
  LOG_LEVEL: setting({
    doc: 'pino log level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`.',
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    default: 'info',
  }),
  DATABASE_URL: setting({
    doc: 'PostgreSQL connection string. Unset: the embedded PGlite database under `DATA_DIR/db`; a new one is copied from the migrated template the build leaves in `dist/pglite-template/` (made when this is unset at build time too), or created with initdb and every migration when that template is missing or older than the migrations.',
    schema: optionalString.pipe(z.url().optional()),
    example: 'postgres://postgres@127.0.0.1:5432/pasal',
  }),
  PGLITE_SHARED_BUFFERS_MB: setting({
    doc: "Page cache of the embedded PGlite database (its `shared_buffers`), in MB. PostgreSQL's own default, 128, roughly doubles the process's memory; a larger catalog on a larger machine reads faster with more. Ignored with `DATABASE_URL`.",
    schema: int(1, 4096),
    default: '32',
  }),
  DATABASE_POOL_SIZE: setting({
    doc: 'Connections per process in the PostgreSQL pool.',
    schema: int(1, 200),
    default: '10',
  }),
  REDIS_URL: setting({
    doc: 'Redis connection string. Set: cache, rate limits, job queues (BullMQ) and the Socket.IO adapter use Redis, so several processes can share the work. Unset: all of these are in-process.',
    schema: optionalString.pipe(z.url().optional()),
    example: 'redis://127.0.0.1:6379',
  }),
  REDIS_PREFIX: setting({
    doc: 'Prefix of every Redis key this server writes, so several deployments can share one Redis.',
    schema: z.string().min(1),
    default: 'pasal',
  }),
  CACHE_LOCAL_TTL_MS: setting({
    doc: "With Redis: how old a process's own copy of a shared public read (content pages, banner serving, the product list and detail, the blog, the service status) may be. Such reads are answered from the copy without asking Redis; every change is announced to all processes, which drop their copies at once, and this limit bounds what a lost announcement can cost. A process keeps at most 500 copies (the least used go first). On either tier, also the age limit of each process's copy of the shipping districts, which every cart change and checkout prices with (an admin's change drops them at once). 0 keeps no copies.",
    schema: int(0, 60_000),
    default: '2000',
  }),
  CACHE_COMMAND_TIMEOUT_MS: setting({
    doc: 'With Redis: a cache read or write that has no answer within this many milliseconds fails, and the caller reads the database instead of waiting for a Redis that hangs.',
    schema: int(10, 60_000),
    default: '250',
  }),
  SMTP_URL: setting({
    doc: 'SMTP server for outgoing mail (`smtp://user:pass@host:587`, `smtps://…`). Unset: mail is written to `DATA_DIR/outbox/mail` and logged.',
    schema: optionalString.pipe(z.url().optional()),
    example: 'smtp://user:password@smtp.example.com:587',
  }),
  MAIL_FROM: setting({
    doc: 'Sender of outgoing mail.',
    schema: z.string().min(3),
    default: 'Pasal <no-reply@localhost>',
  }),
  SMS_PROVIDER: setting({
    doc: 'Where SMS go: `outbox` (written to `DATA_DIR/outbox/sms` and logged), `sparrow` (Sparrow SMS, see `SPARROW_SMS_*`) or `aakash` (Aakash SMS, see `AAKASH_SMS_*`). Both providers deliver to Nepali mobile numbers only: with either, a phone that is not `+977` followed by 10 digits starting with 9 is refused at the request.',
    schema: z.enum(['outbox', 'sparrow', 'aakash']),
    default: 'outbox',
  }),
  SPARROW_SMS_TOKEN: setting({
    doc: 'API token generated in the Sparrow SMS dashboard; required with `SMS_PROVIDER=sparrow`.',
    schema: optionalString,
  }),
  SPARROW_SMS_FROM: setting({
    doc: 'The sender identity Sparrow SMS assigned to the account (its `from`); required with `SMS_PROVIDER=sparrow`.',
    schema: optionalString,
    example: 'TheAlert',
  }),
  SPARROW_SMS_URL: setting({
    doc: 'Sparrow SMS send endpoint (API v2). Change only for a test double or a relay.',
    schema: z.url(),
    default: SPARROW_SMS_DEFAULT_URL,
  }),
  AAKASH_SMS_TOKEN: setting({
    doc: 'The `auth_token` from the Aakash SMS dashboard; required with `SMS_PROVIDER=aakash`.',
    schema: optionalString,
  }),
  AAKASH_SMS_URL: setting({
    doc: 'Aakash SMS send endpoint (API v3). Change only for a test double or a relay.',
    schema: z.url(),
    default: AAKASH_SMS_DEFAULT_URL,
  }),
  PUSH_PROVIDER: setting({
    doc: 'Where push notifications go: `outbox` (written to `DATA_DIR/outbox/push` and logged) or `fcm` (Firebase Cloud Messaging HTTP v1, with the service account of `FCM_SERVICE_ACCOUNT_FILE` or `FCM_SERVICE_ACCOUNT_JSON`).',
    schema: z.enum(['outbox', 'fcm']),
    default: 'outbox',
  }),
  FCM_SERVICE_ACCOUNT_FILE: setting({
    doc: 'Path of the Firebase service account key (JSON, from Project settings → Service accounts → Generate new private key). With `PUSH_PROVIDER=fcm`, this or `FCM_SERVICE_ACCOUNT_JSON` is required.',
    schema: optionalString,
    example: '/run/secrets/firebase-service-account.json',
  }),
  FCM_SERVICE_ACCOUNT_JSON: setting({
    doc: 'The same service account key as JSON text, for platforms that pass secrets as variables; used when `FCM_SERVICE_ACCOUNT_FILE` is unset.',
    schema: optionalString,
  }),
  FCM_BASE_URL: setting({
    doc: 'Base URL of the FCM HTTP v1 API (`{base}/v1/projects/{project_id}/messages:send`). Change only for a test double.',
    schema: z.url(),
    default: FCM_DEFAULT_BASE_URL,
  }),
  DELIVERY_RETRY_BASE_SECONDS: setting({
    doc: 'Mail, SMS and push a provider could not take (no answer, 5xx, 429) are tried again after this many seconds, then twice as long each time, 5 tries in all. Refusals that cannot succeed (a bad number, no credit, a bad token) are not retried.',
    schema: int(0, 3600),
    default: '30',
  }),
  DELIVERY_TIMEOUT_SECONDS: setting({
    doc: 'How long one request to an SMS or push provider may take before it counts as failed (and is retried).',
    schema: int(1, 120),
    default: '10',
  }),
  JWT_SECRET: setting({
    doc: 'Secret that signs access tokens (at least 32 characters). Required in production; otherwise generated once and kept in `DATA_DIR/secrets.json`.',
    schema: optionalString.pipe(z.string().min(32).optional()),
  }),
  URL_SIGNING_SECRET: setting({
    doc: 'Secret that signs file URLs and other signed links (at least 32 characters). Required in production; otherwise generated like `JWT_SECRET`.',
    schema: optionalString.pipe(z.string().min(32).optional()),
  }),
  DIGITAL_KEYS_SECRET: setting({
    doc: "Secret that encrypts stored digital keys (licence keys) and staff authenticator-app (2FA) secrets, and makes the keys' duplicate digests (at least 32 characters). Unset: derived from `JWT_SECRET`, so rotating that secret would make stored keys and 2FA secrets unreadable; set this in production and never change it.",
    schema: optionalString.pipe(z.string().min(32).optional()),
  }),
  JWT_ACCESS_TTL_SECONDS: setting({
    doc: 'Lifetime of an access token.',
    schema: int(30, 86_400),
    default: '900',
  }),
  SESSION_CACHE_MS: setting({
    doc: "How long a process may answer a signed-in request from its own copy of the session (alive, the holder's role and permissions) instead of asking the database. Logout, password reset, deactivation and every other end of a session drop the copies at once on every process, as do changes to roles, permissions and two-factor sign-in; this limit bounds what a lost announcement can cost. With Redis, copies are kept only while `CACHE_LOCAL_TTL_MS` is above 0 (the drops travel with those announcements). 0 asks the database on every request.",
    schema: int(0, 60_000),
    default: '5000',
  }),
  JWT_REFRESH_TTL_DAYS: setting({ doc: 'Lifetime of a refresh token.', schema: int(1, 365), default: '30' }),
  JWT_REFRESH_REUSE_GRACE_SECONDS: setting({
    doc: 'How long a client that lost the reply of a refresh may retry with the previous refresh token.',
    schema: int(0, 300),
    default: '10',
  }),
  STAFF_2FA_REQUIRED: setting({
    doc: 'When true, an admin without two-factor sign-in still signs in, but every admin route except `/api/auth/me`, `/api/auth/logout`, `/api/auth/2fa/*` and `/api/auth/sessions*` answers 403 `AUTH_2FA_ENROLMENT_REQUIRED` until they turn it on.',
    schema: bool,
    default: 'false',
  }),
  AUTH_2FA_CHALLENGE_TTL_SECONDS: setting({
    doc: 'How long the challenge of an admin sign-in with two-factor sign-in stays valid between the password step and the code step.',
    schema: int(30, 3600),
    default: '300',
  }),
  TRUST_PROXY: setting({
    doc: 'Proxies whose `X-Forwarded-For` is trusted for the client IP (rate limits): comma separated addresses or CIDR ranges, or a hop count. Unset: the connection address is the client.',
    schema: optionalString,
    example: '10.0.0.0/8,127.0.0.1',
  }),
  CORS_ORIGINS: setting({
    doc: 'Comma separated origins allowed by CORS; `*` allows any. Unset: no cross-origin browser access.',
    schema: csv,
    example: 'https://admin.example.com,https://shop.example.com',
  }),
  WS_NAMESPACE: setting({
    doc: 'Socket.IO namespace of the realtime channel.',
    schema: z.string().regex(/^\/[\w-]*$/, 'must start with / and hold letters, digits, - or _'),
    default: '/realtime',
  }),
  REALTIME_RECHECK_SECONDS: setting({
    doc: 'How often every open realtime connection has its credential checked again, in seconds (one primary-key query per socket). Revocations (logout, password reset, deactivation, deletion, a revoked guest token) already disconnect their sockets at once on every process, and expiries by a timer: this is the backstop for a broadcast a process missed while its Redis connection was down, or a credential changed outside the API. `0`: no periodic check.',
    schema: int(0, 86_400),
    default: '300',
  }),
  RATE_LIMIT_ENABLED: setting({
    doc: 'Set to `false` to switch every rate limit off (for load tests only).',
    schema: bool,
    default: 'true',
  }),
  JOBS_CONCURRENCY: setting({
    doc: 'How many jobs one worker process runs at once.',
    schema: int(1, 100),
    default: '5',
  }),
  SECURITY_COUNTERS_MAX_ENTRIES: setting({
    doc: 'Security counters (sign-in, code and registration throttles, lockouts, cart change limits) kept in process when `REDIS_URL` is unset, apart from the cache; when all are live, a new one is refused with 429 rather than an old one forgotten.',
    schema: int(100),
    default: '100000',
  }),
  CACHE_MAX_ENTRIES: setting({
    doc: 'Entries kept by the in-process cache (when `REDIS_URL` is unset).',
    schema: int(10),
    default: '10000',
  }),
  DOCS_ENABLED: setting({
    doc: 'Serve the API reference at `/docs` and `/docs/openapi.json`.',
    schema: bool,
    default: 'true',
  }),
  CONSOLE_ENABLED: setting({
    doc: 'Serve the admin console (the back office in the browser, built from `console/` into `console/dist`) at `/admin`. `false`: an API-only deployment, no `/admin` routes, and `npm start` does not build the console.',
    schema: bool,
    default: 'true',
  }),
  METRICS_ENABLED: setting({
    doc: 'Serve Prometheus metrics at `/metrics`. Keep that path off the public internet.',
    schema: bool,
    default: 'true',
  }),
  METRICS_TOKEN: setting({
    doc: 'Bearer token a scraper must send (`Authorization: Bearer <token>`, at least 16 characters) to read `/metrics` in production. Unset in production: `/metrics` answers 404 to everyone. Outside production `/metrics` is open.',
    schema: optionalString.pipe(z.string().min(16).optional()),
  }),
  SHUTDOWN_TIMEOUT_MS: setting({
    doc: 'On SIGTERM, how long to wait for in-flight requests and jobs before exiting anyway.',
    schema: int(0, 600_000),
    default: '15000',
  }),
  BOOTSTRAP_ADMIN_EMAIL: setting({
    doc: 'With `BOOTSTRAP_ADMIN_PASSWORD`: at start, create this superadmin when no account has this email.',
    schema: optionalString.pipe(z.email().optional()),
    example: 'owner@example.com',
  }),
  BOOTSTRAP_ADMIN_PASSWORD: setting({
    doc: 'Password of the bootstrap superadmin (8 to 128 characters).',
    schema: optionalString.pipe(z.string().min(8).max(128).optional()),
  }),
  ...identitySettings,
  ...supportSettings,
  STORAGE_DRIVER: setting({
    doc: 'Where uploaded files are kept: `local` (under `DATA_DIR/storage`, served by this API at `/files/…`) or `s3` (any S3-compatible service, see `S3_*`).',
    schema: z.enum(['local', 's3']),
    default: 'local',
  }),
  S3_ENDPOINT: setting({
    doc: 'Endpoint of an S3-compatible service (MinIO, R2, Spaces…). Unset: AWS S3 of `S3_REGION`.',
    schema: optionalString.pipe(z.url().optional()),
    example: 'https://s3.example.com',
  }),
  S3_REGION: setting({ doc: 'Region of the bucket.', schema: z.string().min(1), default: 'us-east-1' }),
  S3_BUCKET: setting({
    doc: 'Bucket for uploads; required when `STORAGE_DRIVER=s3`. Keys under `public/` must be publicly readable (bucket policy), keys under `uploads/` must not.',
    schema: optionalString,
    example: 'pasal-uploads',
  }),
  S3_ACCESS_KEY_ID: setting({
    doc: 'Access key of the bucket; required when `STORAGE_DRIVER=s3`.',
    schema: optionalString,
  }),
  S3_SECRET_ACCESS_KEY: setting({
    doc: 'Secret key of the bucket; required when `STORAGE_DRIVER=s3`.',
    schema: optionalString,
  }),
  S3_FORCE_PATH_STYLE: setting({
    doc: 'Address the bucket as `endpoint/bucket/key` instead of `bucket.endpoint/key` (MinIO and most self-hosted services need `true`).',
    schema: bool,
    default: 'false',
  }),
  STORAGE_PUBLIC_BASE_URL: setting({
    doc: "With `STORAGE_DRIVER=s3`: the URL prefix of public keys (a CDN or the bucket's public address), followed by the key. Unset: the bucket's own URL.",
    schema: optionalString.pipe(z.url().optional()),
    example: 'https://cdn.example.com',
  }),
  UPLOAD_MAX_FILE_SIZE_MB: setting({
    doc: 'Largest file an admin may upload, in MB (customers: fixed 5 MB).',
    schema: int(1, 10_240),
    default: '50',
  }),
  UPLOAD_IMAGE_MAX_DIMENSION: setting({
    doc: 'Optimised images are scaled down to fit within this many pixels on each side (never enlarged).',
    schema: int(16, 16_384),
    default: '2560',
  }),
  ...catalogSettings,
  ...blogSettings,
  ...cartSettings,
  PAYMENT_RETURN_URL_ALLOWLIST: setting({
    doc: 'Comma-separated prefixes a checkout or buy-now `returnUrl` must start with (else 400 `PAYMENT_RETURN_URL_NOT_ALLOWED`); the payment result page redirects only there. Empty: no return URL is allowed. The default allows the development storefront: set it in production.',
    schema: csv,
    default: 'http://localhost:3001/',
  }),
  ...orderSettings,
  STORE_NAME: setting({
    doc: 'Name of the store as customers see it on documents the server makes (the order invoice PDF).',
    schema: z.string().trim().min(1).max(120),
    default: 'Pasal',
  }),
  STORE_TIMEZONE: setting({
    doc: "IANA time zone of the store's calendar: order analytics buckets (day, week from Sunday, month) and date-only filters (`fromDate`, `toDate`, inclusive) are store-local dates.",
    schema: z.string().trim().refine(isTimeZone, 'must be an IANA time zone name such as Asia/Kathmandu'),
    default: 'Asia/Kathmandu',
  }),
  ...contentSettings,
  ...emiSettings,
  ...bannerSettings,
  ...invoiceSettings,
  ...paymentSettings,
  ...backupSettings,
  OTEL_EXPORTER_OTLP_ENDPOINT: setting({
    doc: 'OTLP/HTTP collector base URL (`/v1/traces` is added): set it (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) to send traces; unset, tracing is off and OpenTelemetry is not even loaded. The other standard `OTEL_*` variables (headers, timeouts, sampler) are honoured.',
    schema: optionalString.pipe(z.url().optional()),
    example: 'http://localhost:4318',
  }),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: setting({
    doc: 'Full URL traces are posted to, instead of `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`.',
    schema: optionalString.pipe(z.url().optional()),
    example: 'http://localhost:4318/v1/traces',
  }),
  OTEL_EXPORTER_OTLP_PROTOCOL: setting({
    doc: 'How traces are sent: `http/protobuf` or `http/json`.',
    schema: z.enum(['http/protobuf', 'http/json']),
    default: 'http/protobuf',
  }),
  OTEL_SERVICE_NAME: setting({
    doc: "The traces' `service.name`. Unset: `pasal-api`, `pasal-worker` or `pasal` (role `all`) by process role.",
    schema: optionalString,
    example: 'pasal-api-eu',
  }),
  // ---------- webhooks (docs/decisions.md, "Webhooks (Standard Webhooks)") ----------
  ...webhookSettings,
} as const;

type Settings = typeof settings;
export type SettingName = keyof Settings;
type RawConfig = { [K in SettingName]: z.output<Settings[K]['schema']> };

export type Role = 'api' | 'worker' | 'all';

export interface Config
  extends Omit<RawConfig, 'PUBLIC_BASE_URL' | 'JWT_SECRET' | 'URL_SIGNING_SECRET' | 'PAYMENTS_MODE'> {
  PUBLIC_BASE_URL: string;
  /** Resolved: `sandbox` outside production when unset, `live` in production. */
  PAYMENTS_MODE: 'sandbox' | 'live';
  JWT_SECRET: string;
  URL_SIGNING_SECRET: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const generatedSecrets = ['JWT_SECRET', 'URL_SIGNING_SECRET'] as const;

/**
 * Parses the environment. Throws a ConfigError naming every bad variable, so start-up stops
 * with a message an operator can act on.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const problems = new Map<SettingName, string>();
  const raw: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(settings) as [SettingName, Setting<z.ZodType>][]) {
    const value = env[name] === undefined || env[name] === '' ? s.default : env[name];
    const parsed = s.schema.safeParse(value);
    if (parsed.success) raw[name] = parsed.data;
    else problems.set(name, parsed.error.issues.map((i) => i.message).join('; '));
  }
  const config = raw as RawConfig;

  // Checked together with the values above, so one failed start names every variable to fix.
  if (config.NODE_ENV === 'production') {
    for (const name of generatedSecrets) {
      if (!config[name] && !problems.has(name)) problems.set(name, 'must be set in production');
    }
  }
  const [email, password] = ['BOOTSTRAP_ADMIN_EMAIL', 'BOOTSTRAP_ADMIN_PASSWORD'] as const;
  if (
    !problems.has(email) &&
    !problems.has(password) &&
    Boolean(config[email]) !== Boolean(config[password])
  ) {
    problems.set(config[email] ? password : email, `${email} and ${password} go together`);
  }
  checkIdentitySettings(
    config,
    (name, message) => {
      if (!problems.has(name)) problems.set(name, message);
    },
    (name) => problems.has(name as SettingName),
  );
  checkPaymentSettings(config, (name, message) => {
    if (!problems.has(name)) problems.set(name, message);
  });
  checkInvoiceSettings(config, (name, message) => {
    if (!problems.has(name)) problems.set(name, message);
  });
  if (config.STORAGE_DRIVER === 's3') {
    for (const name of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
      if (!config[name] && !problems.has(name)) problems.set(name, 'must be set when STORAGE_DRIVER=s3');
    }
  }
  // A provider named without its credentials would fail every message: refuse to start instead.
  if (config.SMS_PROVIDER === 'sparrow') {
    for (const name of ['SPARROW_SMS_TOKEN', 'SPARROW_SMS_FROM'] as const) {
      if (!config[name] && !problems.has(name)) problems.set(name, 'must be set when SMS_PROVIDER=sparrow');
    }
  }
  if (config.SMS_PROVIDER === 'aakash' && !config.AAKASH_SMS_TOKEN && !problems.has('AAKASH_SMS_TOKEN')) {
    problems.set('AAKASH_SMS_TOKEN', 'must be set when SMS_PROVIDER=aakash');
  }
  if (config.PUSH_PROVIDER === 'fcm') {
    const name = config.FCM_SERVICE_ACCOUNT_FILE ? 'FCM_SERVICE_ACCOUNT_FILE' : 'FCM_SERVICE_ACCOUNT_JSON';
    if (!config.FCM_SERVICE_ACCOUNT_FILE && !config.FCM_SERVICE_ACCOUNT_JSON) {
      problems.set(
        name,
        'FCM_SERVICE_ACCOUNT_FILE or FCM_SERVICE_ACCOUNT_JSON must be set when PUSH_PROVIDER=fcm',
      );
    } else {
      try {
        readServiceAccount({ file: config.FCM_SERVICE_ACCOUNT_FILE, json: config.FCM_SERVICE_ACCOUNT_JSON });
      } catch (error) {
        problems.set(name, (error as Error).message);
      }
    }
  }
  if (problems.size) {
    const lines = [...problems].map(([name, message]) => `${name}: ${message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }

  const secrets = generatedSecrets.some((n) => !config[n]) ? devSecrets(config.DATA_DIR) : undefined;

  return {
    ...config,
    PUBLIC_BASE_URL: (config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, ''),
    PAYMENTS_MODE: config.PAYMENTS_MODE ?? (config.NODE_ENV === 'production' ? 'live' : 'sandbox'),
    JWT_SECRET: config.JWT_SECRET ?? secrets!.JWT_SECRET,
    URL_SIGNING_SECRET: config.URL_SIGNING_SECRET ?? secrets!.URL_SIGNING_SECRET,
  };
}

/** Outside production, secrets are made once and kept, so tokens survive a restart. */
function devSecrets(dataDir: string): Record<(typeof generatedSecrets)[number], string> {
  const file = path.join(dataDir, 'secrets.json');
  try {
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    if (generatedSecrets.every((n) => typeof stored[n] === 'string' && stored[n].length >= 32)) return stored;
  } catch {
    // no file yet, or unreadable: make new ones below
  }
  const fresh = Object.fromEntries(generatedSecrets.map((n) => [n, randomBytes(48).toString('base64url')]));
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(fresh, null, 2)}\n`, { mode: 0o600 });
  return fresh as Record<(typeof generatedSecrets)[number], string>;
}

/**
 * Reads a dotenv file into `env` (process.env by default), for the variables `env` does not
 * set already: real environment variables win. A missing file is not an error.
 */
export function loadEnvFile(file: string, env: Record<string, string | undefined> = process.env): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const [name, value] of Object.entries(parseEnv(text))) {
    if (env[name] === undefined) env[name] = value;
  }
}
