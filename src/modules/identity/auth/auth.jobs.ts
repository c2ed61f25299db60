import { z } from 'zod';
import type { Authenticator } from '../../../platform/auth/authenticator';
import type { Clock } from '../../../platform/clock';
import type { Db } from '../../../platform/db/database';
import { inTransaction } from '../../../platform/db/transaction';
import { defineJob } from '../../../platform/jobs/jobs';
import type { Realtime } from '../../../platform/realtime/realtime';
import { anonymizeAccountsDueBefore } from '../identity.repository';
import { disconnectSessions } from '../identity.service';
import {
  type AccountMailJobs,
  type AuthDeps,
  sendPasswordResetMail,
  sendVerificationMail,
} from './auth.service';
import { purgeSpentCodes } from './one-time-codes';

/** Daily at 03:00 UTC. */
export const ANONYMIZE_CRON = '0 3 * * *';

/** Anonymises accounts whose deletion grace period has passed (docs/decisions.md, "Account deletion"). */
export const anonymizeDeletedAccountsJob = (deps: {
  db: Db;
  clock: Clock;
  realtime: Realtime;
  authenticator: Pick<Authenticator, 'forgetSessions'>;
}) =>
  defineJob({
    name: 'identity.anonymize_deleted_accounts',
    payload: z.object({}),
    handler: async () => {
      const { sessionIds } = await inTransaction(deps.db, (tx) =>
        anonymizeAccountsDueBefore(tx, deps.clock.now()),
      );
      // Their sessions are gone: so are their sockets, on every API process (from a worker too).
      await disconnectSessions(deps, sessionIds);
    },
  });

/** Daily at 03:30 UTC. */
export const PURGE_CODES_CRON = '30 3 * * *';

/** Deletes single-use secrets that were used or expired more than a day ago. */
export const purgeSpentCodesJob = (deps: { db: Db; clock: Clock }) =>
  defineJob({
    name: 'identity.purge_spent_codes',
    payload: z.object({}),
    handler: async () => {
      await purgeSpentCodes(deps.db, deps.clock.now());
    },
  });

/**
 * Forgot and resend: the lookup and the mail happen here, not in the request, so the answer
 * takes the same time whether or not the account exists
 * (docs/decisions.md, "Per-IP limits on account e-mail routes").
 */
export const accountMailJobs = (deps: AuthDeps): AccountMailJobs => ({
  passwordReset: defineJob({
    name: 'identity.password_reset_mail',
    payload: z.object({ actor: z.enum(['admin', 'customer']), email: z.string().min(1).max(320) }),
    handler: (payload) => sendPasswordResetMail(deps, payload),
  }),
  verification: defineJob({
    name: 'identity.verification_mail',
    payload: z.object({ email: z.string().min(1).max(320) }),
    handler: (payload) => sendVerificationMail(deps, payload),
  }),
});
