// The session in React: the API client, who is signed in (GET /api/auth/me) and what they may
// do (GET /api/auth/permissions). Screens read it with `useSession()` and gate actions with
// `can('Orders_UPDATE')` or <Can permission="Orders_UPDATE">: what the role forbids is not shown.

import { Center, Loader } from '@mantine/core';
import { type components, isPasalError, type PasalClient, type TwoFactorChallenge } from '@pasal/client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useSyncExternalStore,
} from 'react';
import type { SessionStatus, SessionStore } from './session-store';

export type AdminProfile = components['schemas']['AdminProfile'];
export type SecondFactorAnswer = { challengeToken: string } & ({ code: string } | { recoveryCode: string });
/** A permission code of the API, `<Module>_<ACTION>`: `Orders_READ`, `Products_UPDATE`. */
export type PermissionCode = `${string}_${string}`;

export interface Session {
  client: PasalClient;
  status: SessionStatus;
  /** The signed-in admin; undefined unless `status` is `signed-in`. */
  admin: AdminProfile | undefined;
  role: string | undefined;
  permissions: ReadonlySet<string>;
  /** May the admin do this? No code (null/undefined) means any signed-in admin may. */
  can(permission: PermissionCode | null | undefined): boolean;
  /** Signs in; an admin with two-factor sign-in gets the challenge for `answerChallenge`. */
  signIn(credentials: { email: string; password: string }): Promise<{ challenge?: TwoFactorChallenge }>;
  answerChallenge(answer: SecondFactorAnswer): Promise<void>;
  /**
   * STAFF_2FA_REQUIRED and no 2FA yet: the API admits this admin only to the Security page,
   * so the console shows nothing else.
   */
  enrolmentRequired: boolean;
  /** Reads who they are and what they may do again (after turning 2FA on or off). */
  reloadAccount(): Promise<void>;
  signOut(): Promise<void>;
  /** Leaves the "session ended" screen for the sign-in screen. */
  acknowledgeEnd(): void;
}

const meKey = ['session', 'me'] as const;
const permissionsKey = ['session', 'permissions'] as const;

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ store, children }: { store: SessionStore; children: ReactNode }) {
  const queryClient = useQueryClient();
  const status = useSyncExternalStore(store.subscribe, store.status);
  const { client } = store;
  const signedIn = status === 'signed-in';

  // Who they are and what they may do are read once at sign-in (before the console shows)
  // and kept for the session: a role changed meanwhile applies from the next sign-in, while
  // the API itself checks every call and answers 403 at once.
  const me = useQuery({
    queryKey: meKey,
    queryFn: () => client.get('/api/auth/me'),
    enabled: signedIn,
    staleTime: Number.POSITIVE_INFINITY,
  });
  // An admin the API confines to enrolment (403 AUTH_2FA_ENROLMENT_REQUIRED) holds nothing yet.
  const readPermissions = useCallback(
    () =>
      client.get('/api/auth/permissions').then(
        (granted) => ({ ...granted, enrolmentRequired: false }),
        (error: unknown) => {
          if (isPasalError(error, 'AUTH_2FA_ENROLMENT_REQUIRED')) {
            return { role: '', permissions: [] as string[], enrolmentRequired: true };
          }
          throw error;
        },
      ),
    [client],
  );
  const granted = useQuery({
    queryKey: permissionsKey,
    queryFn: readPermissions,
    enabled: signedIn,
    staleTime: Number.POSITIVE_INFINITY,
  });

  const loadAccount = useCallback(async () => {
    // Nothing of a previous admin's session stays in the cache.
    queryClient.clear();
    await Promise.all([
      queryClient.fetchQuery({ queryKey: meKey, queryFn: () => client.get('/api/auth/me') }),
      queryClient.fetchQuery({ queryKey: permissionsKey, queryFn: readPermissions }),
    ]);
  }, [client, queryClient, readPermissions]);

  const signIn = useCallback(
    (credentials: { email: string; password: string }) => store.signIn(credentials, loadAccount),
    [store, loadAccount],
  );
  const answerChallenge = useCallback(
    (answer: SecondFactorAnswer) => store.answerChallenge(answer, loadAccount),
    [store, loadAccount],
  );
  const reloadAccount = useCallback(async () => {
    await Promise.all([
      queryClient.refetchQueries({ queryKey: meKey }),
      queryClient.refetchQueries({ queryKey: permissionsKey }),
    ]);
  }, [queryClient]);

  // A reload or a new tab: resume the session of the refresh cookie before any screen shows.
  useEffect(() => {
    void store.restore(loadAccount);
  }, [store, loadAccount]);

  const signOut = useCallback(async () => {
    await store.signOut();
    queryClient.clear();
  }, [store, queryClient]);

  const permissionList = granted.data?.permissions;
  const value = useMemo<Session>(() => {
    const permissions: ReadonlySet<string> = new Set(signedIn ? permissionList : []);
    return {
      client,
      status,
      admin: signedIn ? me.data : undefined,
      role: signedIn ? granted.data?.role : undefined,
      permissions,
      // Superadmins need no case of their own: the API lists every code for them.
      can: (permission) => signedIn && (!permission || permissions.has(permission)),
      signIn,
      answerChallenge,
      enrolmentRequired: signedIn && Boolean(granted.data?.enrolmentRequired),
      reloadAccount,
      signOut,
      acknowledgeEnd: store.acknowledgeEnd,
    };
  }, [
    client,
    status,
    signedIn,
    me.data,
    granted.data?.role,
    granted.data?.enrolmentRequired,
    permissionList,
    signIn,
    answerChallenge,
    reloadAccount,
    signOut,
    store,
  ]);

  return (
    <SessionContext.Provider value={value}>
      {status === 'restoring' ? (
        <Center mih="100vh">
          <Loader aria-label="Loading" />
        </Center>
      ) : (
        children
      )}
    </SessionContext.Provider>
  );
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}

/** The API client of the session: every request of the console goes through it. */
export function useClient(): PasalClient {
  return useSession().client;
}

/** Renders its children only when the admin holds `permission` (else `fallback`, default nothing). */
export function Can(props: { permission: PermissionCode | null; children: ReactNode; fallback?: ReactNode }) {
  return useSession().can(props.permission) ? props.children : (props.fallback ?? null);
}
