// The payments module's settings: the mode, which provider serves each online gateway, the
// eSewa and Khalti credentials and endpoints, and the reconciliation timings. src/config.ts
// composes them with the others; loadConfig runs checkPaymentSettings with its own checks.
import { z } from 'zod';
import { bool, int, optionalString, type RefuseSetting, setting } from '../../platform/settings';

/** The providers an online gateway may name (docs/decisions.md, "Real gateways"). */
export const PAYMENT_PROVIDERS = ['sandbox', 'esewa', 'khalti'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];
/** eSewa's public test merchant and key (developer.esewa.com.np, ePay v2): refused in production. */
export const ESEWA_TEST_PRODUCT_CODE = 'EPAYTEST';
export const ESEWA_TEST_SECRET_KEY = '8gBm/:&EnhH.1/q';
/** Hosts of the providers' test environments: a production server must not point there. */
const TEST_HOSTS = [
  'rc-epay.esewa.com.np',
  'rc.esewa.com.np',
  'uat.esewa.com.np',
  'dev.khalti.com',
  'a.khalti.com',
];
const isTestHost = (url: string) => TEST_HOSTS.includes(new URL(url).hostname);

/** The setting that names the provider of each online gateway. */
export const PAYMENT_GATEWAY_SETTINGS = {
  gateway_card: 'PAYMENT_GATEWAY_CARD',
  gateway_wallet_a: 'PAYMENT_GATEWAY_WALLET_A',
  gateway_wallet_b: 'PAYMENT_GATEWAY_WALLET_B',
  gateway_bank: 'PAYMENT_GATEWAY_BANK',
} as const;

export const paymentSettings = {
  PAYMENTS_MODE: setting({
    doc: '`sandbox` or `live`. Unset: `sandbox` outside production, `live` in production. In `sandbox` mode the online gateways left on `sandbox` pay through the built-in sandbox page (`/api/payments/sandbox/:paymentId`). Production refuses to start with `sandbox` unless `PAYMENTS_ALLOW_SANDBOX_IN_PRODUCTION=true`.',
    schema: optionalString.pipe(z.enum(['sandbox', 'live']).optional()),
    example: 'sandbox',
  }),
  PAYMENTS_ALLOW_SANDBOX_IN_PRODUCTION: setting({
    doc: 'Lets a production server start with `PAYMENTS_MODE=sandbox` (a staging deployment that must never take real money).',
    schema: bool,
    default: 'false',
  }),
  PAYMENT_GATEWAY_WALLET_A: setting({
    doc: 'Provider of gateway `gateway_wallet_a`: `sandbox`, `esewa` (eSewa ePay v2) or `khalti` (Khalti web checkout). A gateway on `esewa` or `khalti` uses that provider whatever `PAYMENTS_MODE` says; one on `sandbox` serves only in `PAYMENTS_MODE=sandbox`.',
    schema: z.enum(PAYMENT_PROVIDERS),
    default: 'sandbox',
  }),
  PAYMENT_GATEWAY_WALLET_B: setting({
    doc: 'Provider of gateway `gateway_wallet_b` (`sandbox`, `esewa` or `khalti`, as `PAYMENT_GATEWAY_WALLET_A`).',
    schema: z.enum(PAYMENT_PROVIDERS),
    default: 'sandbox',
  }),
  PAYMENT_GATEWAY_CARD: setting({
    doc: 'Provider of gateway `gateway_card` (`sandbox`, `esewa` or `khalti`, as `PAYMENT_GATEWAY_WALLET_A`).',
    schema: z.enum(PAYMENT_PROVIDERS),
    default: 'sandbox',
  }),
  PAYMENT_GATEWAY_BANK: setting({
    doc: 'Provider of gateway `gateway_bank` (`sandbox`, `esewa` or `khalti`, as `PAYMENT_GATEWAY_WALLET_A`).',
    schema: z.enum(PAYMENT_PROVIDERS),
    default: 'sandbox',
  }),
  ESEWA_PRODUCT_CODE: setting({
    doc: "eSewa merchant (product) code. The default `EPAYTEST` is eSewa's public test merchant; production refuses it.",
    schema: z.string().trim().min(1).max(64),
    default: ESEWA_TEST_PRODUCT_CODE,
  }),
  ESEWA_SECRET_KEY: setting({
    doc: "eSewa secret key (signs the form and checks the success redirect, HMAC-SHA256). The default is eSewa's published test key; production refuses it when a gateway uses `esewa`.",
    schema: z.string().min(1),
    default: ESEWA_TEST_SECRET_KEY,
  }),
  ESEWA_FORM_URL: setting({
    doc: "Where the customer's browser posts the signed eSewa form (`redirectUrl`). Default: the test environment; production: `https://epay.esewa.com.np/api/epay/main/v2/form`.",
    schema: z.url({ protocol: /^https?$/ }),
    default: 'https://rc-epay.esewa.com.np/api/epay/main/v2/form',
  }),
  ESEWA_STATUS_URL: setting({
    doc: 'eSewa status-check API (GET with `product_code`, `total_amount`, `transaction_uuid`). Default: the test environment; production: `https://epay.esewa.com.np/api/epay/transaction/status/`.',
    schema: z.url({ protocol: /^https?$/ }),
    default: 'https://rc.esewa.com.np/api/epay/transaction/status/',
  }),
  KHALTI_SECRET_KEY: setting({
    doc: 'Khalti merchant secret key (`Authorization: Key <secret>`), from test-admin.khalti.com for the sandbox or admin.khalti.com for production. No default: Khalti publishes no shared test key, so a gateway on `khalti` without it stops the start.',
    schema: optionalString,
    example: 'your-khalti-secret-key',
  }),
  KHALTI_BASE_URL: setting({
    doc: 'Khalti API base (`/epayment/initiate/` and `/epayment/lookup/` are under it). Default: the sandbox; production: `https://khalti.com/api/v2`. Production refuses a sandbox host.',
    schema: z.url({ protocol: /^https?$/ }).transform((v) => v.replace(/\/+$/, '')),
    default: 'https://dev.khalti.com/api/v2',
  }),
  PAYMENT_PROVIDER_TIMEOUT_MS: setting({
    doc: 'How long a call to eSewa or Khalti may take (initiation, status, lookup) before it counts as the provider being unreachable.',
    schema: int(500, 60_000),
    default: '10000',
  }),
  PAYMENT_RECONCILE_INTERVAL_SECONDS: setting({
    doc: 'The reconciliation job `payment.reconcile` runs this often: it asks eSewa or Khalti about every payment still pending after `PAYMENT_RECONCILE_AFTER_SECONDS`.',
    schema: int(10, 86_400),
    default: '180',
  }),
  PAYMENT_RECONCILE_AFTER_SECONDS: setting({
    doc: 'A payment still pending this long after checkout is asked about by `payment.reconcile` (a customer who closed the browser before the redirect still gets the order paid).',
    schema: int(0, 86_400),
    default: '300',
  }),
} as const;

type PaymentSettingName = keyof typeof paymentSettings;
type PaymentConfig = { [K in PaymentSettingName]: z.output<(typeof paymentSettings)[K]['schema']> } & {
  NODE_ENV: string;
};

/** The payment settings' own rules, checked with the rest so one failed start names them all. */
export function checkPaymentSettings(config: PaymentConfig, refuse: RefuseSetting<PaymentSettingName>): void {
  if (
    config.NODE_ENV === 'production' &&
    config.PAYMENTS_MODE === 'sandbox' &&
    !config.PAYMENTS_ALLOW_SANDBOX_IN_PRODUCTION
  ) {
    refuse(
      'PAYMENTS_MODE',
      'sandbox payments are refused in production (anyone could pay with the sandbox page); set PAYMENTS_MODE=live, or PAYMENTS_ALLOW_SANDBOX_IN_PRODUCTION=true for a staging server',
    );
  }
  checkPaymentProviders(config, refuse);
}

/**
 * Which provider serves each online gateway (`GET /ready`, the start-up line): `none` for a
 * gateway left on `sandbox` where the sandbox is not allowed. Never a secret.
 */
export function paymentGatewayProviders(
  config: { PAYMENTS_MODE: 'sandbox' | 'live' } & Pick<
    PaymentConfig,
    (typeof PAYMENT_GATEWAY_SETTINGS)[keyof typeof PAYMENT_GATEWAY_SETTINGS]
  >,
): Record<keyof typeof PAYMENT_GATEWAY_SETTINGS, PaymentProvider | 'none'> {
  const entries = Object.entries(PAYMENT_GATEWAY_SETTINGS).map(([gateway, name]) => {
    const provider = config[name];
    return [gateway, provider === 'sandbox' && config.PAYMENTS_MODE !== 'sandbox' ? 'none' : provider];
  });
  return Object.fromEntries(entries) as Record<
    keyof typeof PAYMENT_GATEWAY_SETTINGS,
    PaymentProvider | 'none'
  >;
}

/**
 * docs/decisions.md, "Real gateways": a provider named by a gateway needs its secret, and a
 * production server takes no test key, test merchant or test host.
 */
function checkPaymentProviders(config: PaymentConfig, refuse: RefuseSetting<PaymentSettingName>): void {
  const used = new Set(Object.values(PAYMENT_GATEWAY_SETTINGS).map((name) => config[name]));
  const production = config.NODE_ENV === 'production';
  if (used.has('khalti')) {
    if (!config.KHALTI_SECRET_KEY) {
      refuse(
        'KHALTI_SECRET_KEY',
        'must be set when a PAYMENT_GATEWAY_* names khalti (Khalti publishes no shared test key: take yours from test-admin.khalti.com)',
      );
    } else if (production && /^test_/.test(config.KHALTI_SECRET_KEY)) {
      refuse(
        'KHALTI_SECRET_KEY',
        'is a test key; production needs the live secret key from admin.khalti.com',
      );
    }
    if (production && config.KHALTI_BASE_URL && isTestHost(config.KHALTI_BASE_URL)) {
      refuse('KHALTI_BASE_URL', 'points at the Khalti sandbox; production uses https://khalti.com/api/v2');
    }
  }
  if (used.has('esewa') && production) {
    if (config.ESEWA_SECRET_KEY === ESEWA_TEST_SECRET_KEY) {
      refuse('ESEWA_SECRET_KEY', "must be set in production: the default is eSewa's public test key");
    }
    if (config.ESEWA_PRODUCT_CODE === ESEWA_TEST_PRODUCT_CODE) {
      refuse('ESEWA_PRODUCT_CODE', "must be set in production: EPAYTEST is eSewa's test merchant");
    }
    for (const name of ['ESEWA_FORM_URL', 'ESEWA_STATUS_URL'] as const) {
      if (config[name] && isTestHost(config[name])) refuse(name, "points at eSewa's test environment");
    }
  }
}
