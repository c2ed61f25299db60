// The signed-in admin's session, outside React so that the API client, the query cache and
// the socket all see the same one. Tokens live only in this object's memory (the issue forbids
// localStorage and sessionStorage): a reload or a new tab asks to sign in again.
import { createPasalClient, type PasalClient } from '@pasal/client';

/**
 * - `signed-out`: nobody has signed in in this tab (or they signed out): the sign-in screen.
 * - `signed-in`: tokens are held; screens may call the API.
 * - `ended`: the session ended without the admin asking (refresh refused, session revoked,
 *   password reset elsewhere): the "Your session has ended" screen, until they sign in again.
 */
export type SessionStatus = 'signed-out' | 'signed-in' | 'ended';

export interface SessionStore {
  readonly client: PasalClient;
  status(): SessionStatus;
  subscribe(listener: () => void): () => void;
  /** Signs in; the status turns `signed-in` only once `whenSignedIn` (loading who they are) is done. */
  signIn(credentials: { email: string; password: string }, whenSignedIn: () => Promise<void>): Promise<void>;
  /** Ends the session on the server and here. */
  signOut(): Promise<void>;
  /** The API refused the session (a 401 that a refresh did not cure): show the ended screen. */
  end(): void;
  /** From the ended screen to the sign-in screen. */
  acknowledgeEnd(): void;
}

export function createSessionStore(opts: { baseUrl: string; fetch?: typeof fetch }): SessionStore {
  let status: SessionStatus = 'signed-out';
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
    fetch: opts.fetch,
    // The client forgets the tokens itself when a refresh is refused (401).
    onTokens: (tokens) => {
      if (!tokens && !changingOnPurpose && status === 'signed-in') setStatus('ended');
    },
  });

  return {
    client,
    status: () => status,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async signIn(credentials, whenSignedIn) {
      changingOnPurpose = true;
      try {
        await client.login(credentials);
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
