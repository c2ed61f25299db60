// The only code that talks to the identity provider (OpenID Connect, through openid-client):
// discovery, the authorization URL, the code grant with its ID token checks, and userinfo.
// Discovery happens on first use and is kept, so a provider outage never stops the server
// from starting; a failed discovery is not kept, so the next sign-in tries again.
import * as oidc from 'openid-client';

export interface IdpClientOptions {
  issuerUrl: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  callbackUrl: string;
  scopes: string;
  /** Plain-HTTP issuers are for development and tests only. */
  allowInsecure: boolean;
  /** Seconds allowed for each request to the provider. */
  timeoutSeconds?: number;
}

/** Who the provider says signed in: from the ID token, completed by userinfo. */
export interface ProviderIdentity {
  issuer: string;
  subject: string;
  email?: string;
  /** The provider's `email_verified`; undefined when it does not say. */
  emailVerified?: boolean;
  name?: string;
  picture?: string;
}

/** The provider's tokens as its token endpoint returned them. */
export interface ProviderTokens {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  id_token?: string;
  scope?: string;
  expires_in?: number;
}

/** The discovery document could not be read (network, HTTP status, issuer mismatch). */
export class IdpUnavailableError extends Error {
  override name = 'IdpUnavailableError';
}

/** The provider refused the code, or its answer failed a check (state, nonce, signature, PKCE). */
export class IdpProviderError extends Error {
  override name = 'IdpProviderError';
}

export interface IdpClient {
  /** Reads (once) the provider's discovery document; throws IdpUnavailableError when it cannot. */
  ensureDiscovered(): Promise<void>;
  authorizationUrl(input: { state: string; nonce: string; pkceCodeVerifier: string }): Promise<URL>;
  /**
   * Redeems the authorization code of a callback. `callbackQuery` is the callback's query
   * string as received; `expected*` come from the server-side record of the sign-in.
   */
  completeSignIn(input: {
    callbackQuery: string;
    expectedState: string;
    expectedNonce: string;
    pkceCodeVerifier: string;
  }): Promise<{ identity: ProviderIdentity; tokens: ProviderTokens }>;
}

/** The per-sign-in secrets the server keeps: the PKCE verifier and the ID token nonce. */
export const newSignInSecrets = () => ({
  pkceCodeVerifier: oidc.randomPKCECodeVerifier(),
  nonce: oidc.randomNonce(),
});

const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value.trim() : undefined;

export function createIdpClient(opts: IdpClientOptions): IdpClient {
  let configuration: Promise<oidc.Configuration> | undefined;

  const discover = async (): Promise<oidc.Configuration> => {
    if (!opts.clientId) throw new IdpUnavailableError('IDP_CLIENT_ID is not set');
    try {
      return await oidc.discovery(
        new URL(opts.issuerUrl),
        opts.clientId,
        opts.clientSecret,
        // A client without a secret is a public client: PKCE alone protects the code.
        opts.clientSecret ? oidc.ClientSecretPost(opts.clientSecret) : oidc.None(),
        {
          timeout: opts.timeoutSeconds ?? 10,
          execute: opts.allowInsecure ? [oidc.allowInsecureRequests] : [],
        },
      );
    } catch (error) {
      throw new IdpUnavailableError(`discovery at ${opts.issuerUrl} failed`, { cause: error });
    }
  };

  const config = (): Promise<oidc.Configuration> => {
    if (!configuration) {
      configuration = discover();
      configuration.catch(() => {
        configuration = undefined;
      });
    }
    return configuration;
  };

  return {
    async ensureDiscovered() {
      await config();
    },

    async authorizationUrl({ state, nonce, pkceCodeVerifier }) {
      const c = await config();
      return oidc.buildAuthorizationUrl(c, {
        redirect_uri: opts.callbackUrl,
        response_type: 'code',
        scope: opts.scopes,
        state,
        nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(pkceCodeVerifier),
        code_challenge_method: 'S256',
      });
    },

    async completeSignIn({ callbackQuery, expectedState, expectedNonce, pkceCodeVerifier }) {
      const c = await config();
      const currentUrl = new URL(opts.callbackUrl);
      currentUrl.search = callbackQuery;
      try {
        const response = await oidc.authorizationCodeGrant(c, currentUrl, {
          pkceCodeVerifier,
          expectedState,
          expectedNonce,
          idTokenExpected: true,
        });
        const claims = response.claims();
        if (!claims) throw new IdpProviderError('the provider returned no ID token');
        let profile: Record<string, unknown> = claims;
        // OpenID Connect lets a provider give the email only at userinfo in the code flow.
        if (!str(claims.email) && c.serverMetadata().userinfo_endpoint) {
          const info = await oidc.fetchUserInfo(c, response.access_token, claims.sub);
          profile = { ...info, ...claims, email: info.email, email_verified: info.email_verified };
        }
        const verified = profile.email_verified;
        return {
          identity: {
            issuer: claims.iss,
            subject: claims.sub,
            email: str(profile.email),
            // Some providers send the flag as a string.
            emailVerified:
              typeof verified === 'boolean'
                ? verified
                : verified === 'true'
                  ? true
                  : verified === 'false'
                    ? false
                    : undefined,
            name:
              str(profile.name) ??
              str([str(profile.given_name), str(profile.family_name)].filter(Boolean).join(' ')),
            picture: str(profile.picture),
          },
          tokens: {
            access_token: response.access_token,
            token_type: response.token_type,
            refresh_token: response.refresh_token,
            id_token: response.id_token,
            scope: response.scope,
            expires_in: response.expires_in,
          },
        };
      } catch (error) {
        if (error instanceof IdpProviderError) throw error;
        throw new IdpProviderError(error instanceof Error ? error.message : 'code exchange failed', {
          cause: error,
        });
      }
    },
  };
}
