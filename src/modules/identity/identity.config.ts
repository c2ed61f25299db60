// The identity module's settings: account deletion and customer sign-in with an OpenID Connect
// provider (IDP_*). src/config.ts composes them with the others.
import { z } from 'zod';
import { csv, int, optionalString, type RefuseSetting, setting } from '../../platform/settings';

export const identitySettings = {
  ACCOUNT_DELETION_GRACE_DAYS: setting({
    doc: 'Days between a customer asking to delete the account and its anonymisation; a login in between cancels it.',
    schema: int(0, 365),
    default: '30',
  }),
  IDP_ISSUER_URL: setting({
    doc: 'OpenID Connect issuer of the customer identity provider (discovery at `/.well-known/openid-configuration`). Unset: provider sign-in is off (its routes answer 404 `AUTH_IDP_NOT_CONFIGURED`).',
    schema: optionalString.pipe(z.url().optional()),
    example: 'https://accounts.example.com',
  }),
  IDP_CLIENT_ID: setting({ doc: 'Client id registered at the identity provider.', schema: optionalString }),
  IDP_CLIENT_SECRET: setting({
    doc: 'Client secret registered at the identity provider.',
    schema: optionalString,
  }),
  IDP_CALLBACK_URL: setting({
    doc: 'Redirect URI registered at the provider; must be `{PUBLIC_BASE_URL}/api/mobile/auth/idp/callback` (the default).',
    schema: optionalString.pipe(z.url().optional()),
  }),
  IDP_OAUTH_REDIRECT_ALLOWLIST: setting({
    doc: 'Comma separated frontend URLs a sign-in may return to (`redirect_uri`); compared exactly.',
    schema: csv,
    example: 'myapp://auth/callback,https://shop.example.com/auth/callback',
  }),
  IDP_OAUTH_STATE_SECRET: setting({
    doc: 'Secret that signs the sign-in `state` (at least 32 characters). Required in production when `IDP_ISSUER_URL` is set; otherwise derived from `JWT_SECRET`.',
    schema: optionalString.pipe(z.string().min(32).optional()),
  }),
  IDP_OAUTH_STATE_TTL_SECONDS: setting({
    doc: 'How long a provider sign-in may take, from start to callback.',
    schema: int(30, 3600),
    default: '300',
  }),
  IDP_OAUTH_CODE_TTL_SECONDS: setting({
    doc: 'Lifetime of the one-time code the frontend exchanges for tokens.',
    schema: int(10, 600),
    default: '90',
  }),
  IDP_SCOPES: setting({
    doc: 'Scopes asked of the identity provider.',
    schema: z.string().min(1),
    default: 'openid email profile',
  }),
};

type IdentitySettingName = keyof typeof identitySettings;
type IdentityConfig = { [K in IdentitySettingName]: z.output<(typeof identitySettings)[K]['schema']> } & {
  NODE_ENV: string;
  /** As configured: unset means `http://localhost:$PORT`. */
  PUBLIC_BASE_URL?: string;
  PORT: number;
};

/**
 * Provider sign-in: the promises made in the IDP_* docs (a client id with the issuer, a state
 * secret in production, the callback URL this API answers on). Skipped when a setting
 * it depends on was already refused (`refused`), so one start names only the first cause.
 */
export function checkIdentitySettings(
  config: IdentityConfig,
  refuse: RefuseSetting<IdentitySettingName>,
  refused: (name: string) => boolean,
): void {
  if (config.IDP_ISSUER_URL && !refused('IDP_ISSUER_URL')) {
    if (!config.IDP_CLIENT_ID) refuse('IDP_CLIENT_ID', 'must be set when IDP_ISSUER_URL is set');
    if (config.NODE_ENV === 'production' && !config.IDP_OAUTH_STATE_SECRET) {
      refuse('IDP_OAUTH_STATE_SECRET', 'must be set in production when IDP_ISSUER_URL is set');
    }
  }
  if (config.IDP_CALLBACK_URL && !refused('IDP_CALLBACK_URL') && !refused('PUBLIC_BASE_URL')) {
    const base = (config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
    const expected = `${base}/api/mobile/auth/idp/callback`;
    if (config.IDP_CALLBACK_URL !== expected) refuse('IDP_CALLBACK_URL', `must equal ${expected}`);
  }
}
