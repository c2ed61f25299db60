// loadConfig on explicit environments (never process.env), and the rule that every setting is
// documented in README.md and .env.example.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadEnvFile, settings } from '../../src/config';

const root = path.resolve(import.meta.dirname, '../..');
const JWT = 'a-jwt-secret-that-is-long-enough-0123456789';
const URL_SECRET = 'a-url-signing-secret-long-enough-0123456789';

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pasal-config-'));
  dirs.push(dir);
  return dir;
}

/** The ConfigError loadConfig throws for `env`; fails the test when it accepts it. */
function refused(env: Record<string, string>): ConfigError {
  try {
    loadConfig({ DATA_DIR: tempDir(), ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

/** The variables a ConfigError names, one per line of its message. */
const named = (error: ConfigError) =>
  [...error.message.matchAll(/^\s+([A-Z][A-Z0-9_]*): /gm)].map((m) => m[1]);

describe('loadConfig', () => {
  it('applies the defaults, PUBLIC_BASE_URL following PORT', () => {
    const config = loadConfig({ DATA_DIR: tempDir() });
    expect(config).toMatchObject({
      NODE_ENV: 'development',
      PORT: 3000,
      HOST: '0.0.0.0',
      PUBLIC_BASE_URL: 'http://localhost:3000',
      WS_NAMESPACE: '/realtime',
      LOG_LEVEL: 'info',
      CORS_ORIGINS: [],
      RATE_LIMIT_ENABLED: true,
      SHUTDOWN_TIMEOUT_MS: 15_000,
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
    });
    expect(loadConfig({ DATA_DIR: tempDir(), PORT: '4100' }).PUBLIC_BASE_URL).toBe('http://localhost:4100');
    // An empty variable is unset, as a blank line in a .env or a compose file means.
    expect(loadConfig({ DATA_DIR: tempDir(), PORT: '' }).PORT).toBe(3000);
  });

  it('takes PUBLIC_BASE_URL without its trailing slash, and parses booleans and numbers', () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      PUBLIC_BASE_URL: 'https://api.example.com/',
      RATE_LIMIT_ENABLED: 'false',
      DOCS_ENABLED: '0',
      JOBS_CONCURRENCY: ' 12 ',
    });
    expect(config).toMatchObject({
      PUBLIC_BASE_URL: 'https://api.example.com',
      RATE_LIMIT_ENABLED: false,
      DOCS_ENABLED: false,
      JOBS_CONCURRENCY: 12,
    });
  });

  it('splits CORS_ORIGINS on commas, trimming and dropping empty entries', () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      CORS_ORIGINS: 'https://admin.example.com, https://shop.example.com,,',
    });
    expect(config.CORS_ORIGINS).toEqual(['https://admin.example.com', 'https://shop.example.com']);
  });

  it('refuses bad values with one ConfigError naming every bad variable, and only those', () => {
    const error = refused({
      PORT: 'abc',
      LOG_LEVEL: 'loud',
      WS_NAMESPACE: 'realtime',
      PUBLIC_WEB_URL: 'not a url',
      RATE_LIMIT_ENABLED: 'yes',
    });
    expect(error.name).toBe('ConfigError');
    expect(named(error).sort()).toEqual(
      ['LOG_LEVEL', 'PORT', 'PUBLIC_WEB_URL', 'RATE_LIMIT_ENABLED', 'WS_NAMESPACE'].sort(),
    );
  });

  describe('SMS and push providers', () => {
    it('a provider named without its credentials stops the start, naming what is missing', () => {
      expect(named(refused({ SMS_PROVIDER: 'sparrow' })).sort()).toEqual([
        'SPARROW_SMS_FROM',
        'SPARROW_SMS_TOKEN',
      ]);
      expect(named(refused({ SMS_PROVIDER: 'aakash' }))).toEqual(['AAKASH_SMS_TOKEN']);
      expect(named(refused({ PUSH_PROVIDER: 'fcm' }))).toEqual(['FCM_SERVICE_ACCOUNT_JSON']);
      expect(named(refused({ SMS_PROVIDER: 'twilio' }))).toEqual(['SMS_PROVIDER']);
    });

    it('an unreadable service account is refused without echoing its content', () => {
      const error = refused({
        PUSH_PROVIDER: 'fcm',
        FCM_SERVICE_ACCOUNT_JSON: '{"private_key":"secret-key-text"}',
      });
      expect(named(error)).toEqual(['FCM_SERVICE_ACCOUNT_JSON']);
      expect(error.message).not.toContain('secret-key-text');
      expect(
        named(refused({ PUSH_PROVIDER: 'fcm', FCM_SERVICE_ACCOUNT_FILE: '/nonexistent/sa.json' })),
      ).toEqual(['FCM_SERVICE_ACCOUNT_FILE']);
    });

    it('defaults: the outbox for both, retries from 30 s, 10 s per provider request', () => {
      const config = loadConfig({ DATA_DIR: tempDir() });
      expect(config).toMatchObject({
        SMS_PROVIDER: 'outbox',
        PUSH_PROVIDER: 'outbox',
        SPARROW_SMS_URL: 'https://api.sparrowsms.com/v2/sms/',
        AAKASH_SMS_URL: 'https://sms.aakashsms.com/sms/v3/send/',
        FCM_BASE_URL: 'https://fcm.googleapis.com',
        DELIVERY_RETRY_BASE_SECONDS: 30,
        DELIVERY_TIMEOUT_SECONDS: 10,
        COD_REQUIRES_VERIFIED_PHONE: false,
      });
    });
  });

  describe('identity provider settings', () => {
    const issuer = { IDP_ISSUER_URL: 'https://accounts.example.com' };
    it('IDP_CLIENT_ID goes with IDP_ISSUER_URL', () => {
      expect(named(refused(issuer))).toEqual(['IDP_CLIENT_ID']);
      expect(loadConfig({ DATA_DIR: tempDir(), ...issuer, IDP_CLIENT_ID: 'pasal' }).IDP_CLIENT_ID).toBe(
        'pasal',
      );
    });

    it('production needs IDP_OAUTH_STATE_SECRET when provider sign-in is on', () => {
      const production = { NODE_ENV: 'production', JWT_SECRET: JWT, URL_SIGNING_SECRET: URL_SECRET };
      expect(named(refused({ ...production, ...issuer, IDP_CLIENT_ID: 'pasal' }))).toEqual([
        'IDP_OAUTH_STATE_SECRET',
      ]);
      const config = loadConfig({
        DATA_DIR: tempDir(),
        ...production,
        ...issuer,
        IDP_CLIENT_ID: 'pasal',
        IDP_OAUTH_STATE_SECRET: 's'.repeat(40),
      });
      expect(config.IDP_OAUTH_STATE_SECRET).toHaveLength(40);
    });

    it('IDP_CALLBACK_URL must be the callback route under PUBLIC_BASE_URL', () => {
      const base = { PUBLIC_BASE_URL: 'https://api.example.com/' };
      expect(
        named(
          refused({ ...base, IDP_CALLBACK_URL: 'https://evil.example.com/api/mobile/auth/idp/callback' }),
        ),
      ).toEqual(['IDP_CALLBACK_URL']);
      const config = loadConfig({
        DATA_DIR: tempDir(),
        ...base,
        IDP_CALLBACK_URL: 'https://api.example.com/api/mobile/auth/idp/callback',
      });
      expect(config.IDP_CALLBACK_URL).toBe('https://api.example.com/api/mobile/auth/idp/callback');
    });
  });

  it.for([' ', '1e3', '0x10', '3000.5', '-1', '70000'])('refuses PORT=%j', (port) => {
    expect(named(refused({ PORT: port }))).toEqual(['PORT']);
  });

  describe('secrets', () => {
    it('production requires JWT_SECRET and URL_SIGNING_SECRET, named with any other bad value', () => {
      expect(named(refused({ NODE_ENV: 'production' })).sort()).toEqual(['JWT_SECRET', 'URL_SIGNING_SECRET']);
      expect(named(refused({ NODE_ENV: 'production', JWT_SECRET: JWT, PORT: 'abc' })).sort()).toEqual([
        'PORT',
        'URL_SIGNING_SECRET',
      ]);
      expect(
        named(refused({ NODE_ENV: 'production', JWT_SECRET: 'short', URL_SIGNING_SECRET: URL_SECRET })),
      ).toEqual(['JWT_SECRET']);
    });

    it('production takes the secrets given and writes no secrets file', () => {
      const dataDir = tempDir();
      const config = loadConfig({
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        JWT_SECRET: JWT,
        URL_SIGNING_SECRET: URL_SECRET,
      });
      expect(config).toMatchObject({ JWT_SECRET: JWT, URL_SIGNING_SECRET: URL_SECRET });
      expect(existsSync(path.join(dataDir, 'secrets.json'))).toBe(false);
    });

    it('outside production, generates them once into DATA_DIR/secrets.json and reads them back', () => {
      const dataDir = tempDir();
      const first = loadConfig({ DATA_DIR: dataDir });
      expect(first.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
      expect(first.URL_SIGNING_SECRET.length).toBeGreaterThanOrEqual(32);
      expect(first.JWT_SECRET).not.toBe(first.URL_SIGNING_SECRET);

      const file = path.join(dataDir, 'secrets.json');
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
        JWT_SECRET: first.JWT_SECRET,
        URL_SIGNING_SECRET: first.URL_SIGNING_SECRET,
      });
      if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);

      const second = loadConfig({ DATA_DIR: dataDir });
      expect(second.JWT_SECRET).toBe(first.JWT_SECRET);
      expect(second.URL_SIGNING_SECRET).toBe(first.URL_SIGNING_SECRET);
      // Another data folder is another installation: its own secrets.
      expect(loadConfig({ DATA_DIR: tempDir() }).JWT_SECRET).not.toBe(first.JWT_SECRET);
    });

    it('a secret set in the environment wins over the stored one', () => {
      const dataDir = tempDir();
      const generated = loadConfig({ DATA_DIR: dataDir });
      const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: JWT });
      expect(config.JWT_SECRET).toBe(JWT);
      expect(config.URL_SIGNING_SECRET).toBe(generated.URL_SIGNING_SECRET);
    });
  });

  describe('bootstrap admin', () => {
    it('refuses BOOTSTRAP_ADMIN_EMAIL without the password, and the password without the email', () => {
      expect(named(refused({ BOOTSTRAP_ADMIN_EMAIL: 'owner@example.com' }))).toEqual([
        'BOOTSTRAP_ADMIN_PASSWORD',
      ]);
      expect(named(refused({ BOOTSTRAP_ADMIN_PASSWORD: 'a long enough password' }))).toEqual([
        'BOOTSTRAP_ADMIN_EMAIL',
      ]);
    });

    it('refuses a bad email or a short password, and accepts the pair', () => {
      expect(
        named(
          refused({ BOOTSTRAP_ADMIN_EMAIL: 'owner', BOOTSTRAP_ADMIN_PASSWORD: 'a long enough password' }),
        ),
      ).toEqual(['BOOTSTRAP_ADMIN_EMAIL']);
      expect(
        named(refused({ BOOTSTRAP_ADMIN_EMAIL: 'owner@example.com', BOOTSTRAP_ADMIN_PASSWORD: 'short' })),
      ).toEqual(['BOOTSTRAP_ADMIN_PASSWORD']);
      const config = loadConfig({
        DATA_DIR: tempDir(),
        BOOTSTRAP_ADMIN_EMAIL: 'owner@example.com',
        BOOTSTRAP_ADMIN_PASSWORD: 'a long enough password',
      });
      expect(config).toMatchObject({
        BOOTSTRAP_ADMIN_EMAIL: 'owner@example.com',
        BOOTSTRAP_ADMIN_PASSWORD: 'a long enough password',
      });
    });
  });
});

describe('METRICS_TOKEN', () => {
  it('is optional, trimmed, and at least 16 characters', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig({ DATA_DIR: tempDir(), METRICS_TOKEN: ' a-metrics-token-0123 ' }).METRICS_TOKEN).toBe(
      'a-metrics-token-0123',
    );
    expect(named(refused({ METRICS_TOKEN: 'short' }))).toEqual(['METRICS_TOKEN']);
  });
});

describe('loadEnvFile', () => {
  it('fills in the variables the environment does not set; the environment wins', () => {
    const file = path.join(tempDir(), '.env');
    writeFileSync(file, '# a comment\nPORT=4000\nHOST=127.0.0.1\nMAIL_FROM="Shop <shop@example.com>"\n');
    const env: Record<string, string | undefined> = { HOST: '0.0.0.0' };
    loadEnvFile(file, env);
    expect(env).toEqual({ PORT: '4000', HOST: '0.0.0.0', MAIL_FROM: 'Shop <shop@example.com>' });
  });

  it('does nothing when the file does not exist', () => {
    const env = { PORT: '1' };
    loadEnvFile(path.join(tempDir(), '.env'), env);
    expect(env).toEqual({ PORT: '1' });
  });
});

// An undocumented setting fails the suite: the README table and .env.example are generated
// from `settings` (scripts/config-docs.ts) and must be regenerated when a setting changes.
describe('configuration documentation', () => {
  const names = Object.keys(settings);
  const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

  it('README.md has a table row for every setting, and no row for a setting that does not exist', () => {
    const rows = [...read('README.md').matchAll(/^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|/gm)].map((m) => m[1]);
    expect(names.filter((name) => !rows.includes(name))).toEqual([]);
    expect(rows.filter((name) => !names.includes(name!))).toEqual([]);
  });

  it('.env.example has NAME= (or # NAME=) for every setting, and for no other name', () => {
    const lines = [...read('.env.example').matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
    expect(names.filter((name) => !lines.includes(name))).toEqual([]);
    expect(lines.filter((name) => !names.includes(name!))).toEqual([]);
  });
});
