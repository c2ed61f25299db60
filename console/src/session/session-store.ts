// The signed-in admin's session, outside React so that the API client, the query cache and
// the socket all see the same one. The access token lives only in this object's memory (never
// localStorage or sessionStorage); the refresh token is an HttpOnly cookie the page cannot read
// (docs/api-notes.md, "Console sessions: the refresh cookie"), so a reload or a new tab resumes
// the session with one refresh before the first screen shows.
import {
  createPasalClient,
  type PasalClient,
  type TwoFactorChallenge,
  TwoFactorRequired,
} from '@pasal/client';

/**
 * - `restoring`: the page has just loaded and asks the refresh cookie for the session.
 * - `signed-out`: nobody has signed in in this tab (or they signed out): the sign-in screen.
 * - `signed-in`: tokens are held; screens may call the API.
 * - `ended`: the session ended without the admin asking (refresh refused, session revoked,
 *   password reset elsewhere): the "Your session has ended" screen, until they sign in again.
 */
export type SessionStatus = 'restoring' | 'signed-out' | 'signed-in' | 'ended';

export interface SessionStore {
  readonly client: PasalClient;
  status(): SessionStatus;
  subscribe(listener: () => void): () => void;
  /**
   * Signs in; the status turns `signed-in` only once `whenSignedIn` (loading who they are) is
   * done. An admin with two-factor sign-in gets the challenge back instead, still signed out.
   */
  signIn(
    credentials: { email: string; password: string },
    whenSignedIn: () => Promise<void>,
  ): Promise<{ challenge?: TwoFactorChallenge }>;
  /** The code step: a code from the app or a recovery code for the password step's challenge. */
  answerChallenge(
    answer: { challengeToken: string } & ({ code: string } | { recoveryCode: string }),
    whenSignedIn: () => Promise<void>,
  ): Promise<void>;
  /**
   * On page load: resumes the session of the refresh cookie (then `whenSignedIn`), or settles
   * on `signed-out` when there is none.
   */
  restore(whenSignedIn: () => Promise<void>): Promise<void>;
  /** Ends the session on the server and here (the server clears the cookie). */
  signOut(): Promise<void>;
  /** The API refused the session (a 401 that a refresh did not cure): show the ended screen. */
  end(): void;
  /** From the ended screen to the sign-in screen. */
  acknowledgeEnd(): void;
}

/**
 * How this browser appears in "Signed-in devices" (the API keeps what sign-in sends): the
 * browser and system read from the user agent, e.g. "Firefox on Windows".
 */
export function consoleDevice(userAgent: string = navigator.userAgent) {
  const browser =
    [
      ['Edg/', 'Edge'],
      ['Firefox/', 'Firefox'],
      ['Chrome/', 'Chrome'],
      ['Safari/', 'Safari'],
    ].find(([marker]) => userAgent.includes(marker!))?.[1] ?? 'Browser';
  const system =
    [
      ['Android', 'Android'],
      ['iPhone', 'iPhone'],
      ['iPad', 'iPad'],
      ['Windows', 'Windows'],
      ['Mac OS', 'macOS'],
      ['Linux', 'Linux'],
    ].find(([marker]) => userAgent.includes(marker!))?.[1] ?? '';
  return {
    deviceId: globalThis.crypto?.randomUUID?.() ?? String(Date.now()),
    deviceType: 'web',
    deviceName: system ? `${browser} on ${system}` : browser,
  };
}

export function createSessionStore(opts: { baseUrl: string; fetch?: typeof fetch }): SessionStore {
  let status: SessionStatus = 'restoring';
  let restoring: Promise<void> | null = null;
  // Set while the admin signs in or out: tokens that change then are expected, not an ending.
  let changingOnPurpose = false;
  const listeners = new Set<() => void>();
  const setStatus = (next: SessionStatus) => {
    if (next === status) return;
    status = next;
    for (const listener of listeners) listener();
  };

  const client = createPasalClient({
    baseUrl: opts.baseUrl,
    surface: 'admin',
    refreshTokenCookie: true,
    fetch: opts.fetch,
    // The client forgets the tokens itself when a refresh is refused (401).
    onTokens: (tokens) => {
      if (!tokens && !changingOnPurpose && status === 'signed-in') setStatus('ended');
    },
  });

  async function signInWith(getTokens: () => Promise<unknown>, whenSignedIn: () => Promise<void>) {
    changingOnPurpose = true;
    try {
      await getTokens();
      try {
        await whenSignedIn();
      } catch (error) {
        client.setTokens(null);
        throw error;
      }
    } finally {
      changingOnPurpose = false;
    }
    setStatus('signed-in');
  }

  return {
    client,
    status: () => status,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async signIn(credentials, whenSignedIn) {
      try {
        await signInWith(() => client.login({ ...credentials, deviceInfo: consoleDevice() }), whenSignedIn);
        return {};
      } catch (error) {
        if (error instanceof TwoFactorRequired) return { challenge: error.challenge };
        throw error;
      }
    },
    async answerChallenge(answer, whenSignedIn) {
      await signInWith(
        () => client.loginWithSecondFactor({ ...answer, deviceInfo: consoleDevice() }),
        whenSignedIn,
      );
    },
    restore(whenSignedIn) {
      // Once per page, however often React mounts the provider.
      restoring ??= (async () => {
        if (status !== 'restoring') return;
        try {
          await signInWith(() => client.refresh(), whenSignedIn);
        } catch {
          // No cookie, or one the server refused: the sign-in screen.
          client.setTokens(null);
          if (status === 'restoring') setStatus('signed-out');
        }
      })();
      return restoring;
    },
    async signOut() {
      changingOnPurpose = true;
      try {
        // A server that cannot be reached still leaves this tab signed out.
        await client.logout().catch(() => {});
      } finally {
        changingOnPurpose = false;
        setStatus('signed-out');
      }
    },
    end() {
      if (status !== 'signed-in') return;
      client.setTokens(null);
      setStatus('ended');
    },
    acknowledgeEnd() {
      if (status === 'ended') setStatus('signed-out');
    },
  };
}
