// Signed-in devices (docs/decisions.md, "Signed-in devices"), for admins and customers alike: the
// live sessions of the caller, and signing one or all others out through the same revocation
// as logout (refresh token dead at once, access tokens refused from the next request, sockets
// closed after the commit).
import type { UserPrincipal } from '../../../platform/auth/principal';
import type { ModuleContext } from '../../../platform/module';
import * as repo from '../identity.repository';
import { disconnectSessions } from '../identity.service';
import { sessionErrors } from './sessions.errors';
import type { SignedInDevice } from './sessions.schemas';

export type SessionDeps = Pick<ModuleContext, 'db' | 'clock' | 'realtime' | 'authenticator'>;

export async function listSignedInDevices(
  deps: SessionDeps,
  caller: UserPrincipal,
): Promise<SignedInDevice[]> {
  const rows = await repo.listLiveSessions(deps.db, caller.userId, deps.clock.now());
  return rows.map((row) => ({
    sessionId: row.id,
    deviceName: row.deviceInfo?.deviceName ?? null,
    deviceType: row.deviceInfo?.deviceType ?? null,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: (row.lastUsedAt ?? row.createdAt).toISOString(),
    current: row.id === caller.sessionId,
  }));
}

/** Signs one of the caller's devices out (the current one too, like logout). */
export async function signOutDevice(
  deps: SessionDeps,
  input: { caller: UserPrincipal; sessionId: string },
): Promise<void> {
  const ended = await repo.revokeSessionOf(deps.db, input.caller.userId, input.sessionId, deps.clock.now());
  if (!ended) throw sessionErrors.notFound();
  await disconnectSessions(deps, [input.sessionId]);
}

/** Signs every other device of the caller out; the calling one stays. */
export async function signOutOtherDevices(
  deps: SessionDeps,
  input: { caller: UserPrincipal },
): Promise<{ revokedCount: number }> {
  const ended = await repo.revokeSessionsExcept(
    deps.db,
    input.caller.userId,
    input.caller.sessionId,
    deps.clock.now(),
  );
  await disconnectSessions(deps, ended);
  return { revokedCount: ended.length };
}
