// Payment settings: the sandbox is the default outside production and refused in production
// unless explicitly allowed; with PAYMENTS_MODE=live a gateway left on `sandbox` serves nobody.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config';
import { initiatePayment } from '../../../src/modules/payments';
import { createTestApp, type TestApp } from '../../helpers/app';

const PRODUCTION = {
  NODE_ENV: 'production',
  JWT_SECRET: 'a-jwt-secret-that-is-long-enough-0123456789',
  URL_SIGNING_SECRET: 'a-url-signing-secret-long-enough-0123456789',
};
let dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pasal-payments-config-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

describe('payment settings', () => {
  it('PAYMENTS_MODE defaults to sandbox outside production and live in production', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).PAYMENTS_MODE).toBe('sandbox');
    expect(loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'test' }).PAYMENTS_MODE).toBe('sandbox');
    expect(loadConfig({ DATA_DIR: dataDir(), ...PRODUCTION }).PAYMENTS_MODE).toBe('live');
  });

  it('production refuses to start with PAYMENTS_MODE=sandbox, with a message naming the way out', () => {
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: dataDir(), ...PRODUCTION, PAYMENTS_MODE: 'sandbox' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(
      /^\s+PAYMENTS_MODE: sandbox payments are refused in production/m,
    );
    expect((error as Error).message).toContain('PAYMENTS_ALLOW_SANDBOX_IN_PRODUCTION=true');
  });

  it('production starts in sandbox mode when PAYMENTS_ALLOW_SANDBOX_IN_PRODUCTION=true', () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      ...PRODUCTION,
      PAYMENTS_MODE: 'sandbox',
      PAYMENTS_ALLOW_SANDBOX_IN_PRODUCTION: 'true',
    });
    expect(config.PAYMENTS_MODE).toBe('sandbox');
  });

  it('accepts sandbox, esewa or khalti as a gateway provider, and reads the return URL allowlist', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), PAYMENT_GATEWAY_WALLET_A: 'paypal' })).toThrow(
      /PAYMENT_GATEWAY_WALLET_A/,
    );
    expect(
      loadConfig({ DATA_DIR: dataDir(), PAYMENT_GATEWAY_WALLET_A: 'esewa' }).PAYMENT_GATEWAY_WALLET_A,
    ).toBe('esewa');
    expect(() => loadConfig({ DATA_DIR: dataDir(), PAYMENTS_MODE: 'paypal' })).toThrow(/PAYMENTS_MODE/);
    const config = loadConfig({
      DATA_DIR: dataDir(),
      PAYMENT_RETURN_URL_ALLOWLIST: ' https://a.example/r , https://b.example/ ',
    });
    expect(config.PAYMENT_RETURN_URL_ALLOWLIST).toEqual(['https://a.example/r', 'https://b.example/']);
    expect(config.PAYMENT_GATEWAY_CARD).toBe('sandbox');
  });
});

describe('PAYMENTS_MODE=live with every gateway still on sandbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { PAYMENTS_MODE: 'live', PAYMENT_RETURN_URL_ALLOWLIST: 'http://localhost:3001/' },
    });
  });
  afterAll(() => t.close());

  it('an online gateway is 502 PAYMENT_GATEWAY_UNAVAILABLE, COD still works, and the sandbox page does not exist', async () => {
    const deps = { ...t.platform, db: t.platform.database.db };
    const input = { orderId: 1, orderNumber: 'ORD-1', amount: 100, returnUrl: 'http://localhost:3001/r' };
    await expect(initiatePayment(deps, { ...input, gateway: 'gateway_wallet_a' })).rejects.toMatchObject({
      statusCode: 502,
      errorCode: 'PAYMENT_GATEWAY_UNAVAILABLE',
    });
    const cod = await initiatePayment(deps, { ...input, gateway: 'cod' });
    expect(cod.initiationType).toBe('none');
    const page = await t.app.inject({ method: 'GET', url: `/api/payments/sandbox/${cod.paymentId}` });
    expect(page.statusCode).toBe(404);
    expect(page.json().errorCode).toBe('ROUTE_NOT_FOUND');
  });
});
