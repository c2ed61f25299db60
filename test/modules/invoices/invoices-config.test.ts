// The tax settings at start-up: production refuses tax invoices without a valid seller PAN and
// CBMS without its password; defaults keep tax invoices off.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config';

const dir = mkdtempSync(path.join(tmpdir(), 'pasal-tax-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const production = {
  DATA_DIR: dir,
  NODE_ENV: 'production',
  JWT_SECRET: 'a-jwt-secret-that-is-long-enough-0123456789',
  URL_SIGNING_SECRET: 'a-url-signing-secret-long-enough-0123456789',
  PAYMENTS_MODE: 'live',
};

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return [...error.message.matchAll(/^\s+([A-Z][A-Z0-9_]*): /gm)].map((m) => m[1]!);
  }
}

describe('tax invoice settings', () => {
  it('default: off, VAT 13 % on VAT-inclusive prices, no CBMS, retries from 30 s', () => {
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({
      TAX_INVOICES_ENABLED: false,
      VAT_RATE_PERCENT: 13,
      PRICES_INCLUDE_VAT: true,
      INVOICE_NUMBER_PREFIX: 'INV-',
      CREDIT_NOTE_NUMBER_PREFIX: 'CN-',
      INVOICE_ABBREVIATED_MAX_NPR: 0,
      CBMS_RETRY_BASE_SECONDS: 30,
    });
    expect(config.CBMS_URL).toBeUndefined();
  });

  it('production refuses tax invoices without a 9-digit seller PAN', () => {
    expect(problems({ ...production, TAX_INVOICES_ENABLED: 'true' })).toContain('SELLER_PAN');
    expect(problems({ ...production, TAX_INVOICES_ENABLED: 'true', SELLER_PAN: '12345' })).toContain(
      'SELLER_PAN',
    );
    expect(problems({ ...production, TAX_INVOICES_ENABLED: 'true', SELLER_PAN: '601234567' })).not.toContain(
      'SELLER_PAN',
    );
  });

  it('production refuses CBMS without its password', () => {
    const cbms = { ...production, CBMS_URL: 'https://cbapi.example', CBMS_USERNAME: 'shop' };
    expect(problems(cbms)).toContain('CBMS_PASSWORD');
    expect(problems({ ...cbms, CBMS_PASSWORD: 'secret' })).not.toContain('CBMS_PASSWORD');
  });
});
