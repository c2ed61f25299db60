// Sending issued documents to CBMS: job `tax.cbms_sync`, queued after the issuing transaction
// commits, so a sale never waits on the IRD. Failures are retried by the job queue after
// CBMS_RETRY_BASE_SECONDS, doubling, 8 tries in all; wrong credentials stop at once and alert
// the admins who hold Invoices_SYNC. The document keeps `syncStatus` and the last reply, and
// every attempt is in the activity log (no admin: the job acted) with its reply and effect.
import { z } from 'zod';
import type { Config } from '../../config';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/database';
import { inTransaction } from '../../platform/db/transaction';
import { defineJob, type JobDefinition } from '../../platform/jobs/jobs';
import { recordActivity } from '../activity';
import type { Notifier } from '../notifications';
import { postToCbms } from './cbms.client';
import { invoiceErrors } from './invoices.errors';
import { invoicePermissions } from './invoices.permissions';
import * as repo from './invoices.repository';
import { KIND_WORDS } from './invoices.service';
import type { TaxDocumentKind } from './invoices.table';

export const CBMS_MAX_TRIES = 8;

export interface CbmsDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'CBMS_URL' | 'CBMS_USERNAME' | 'CBMS_PASSWORD' | 'CBMS_RETRY_BASE_SECONDS'>;
  notifier: Notifier;
  log: { warn(obj: object, msg: string): void };
}

export const cbmsSyncPayload = z.object({
  documentId: z.number().int(),
  /** An admin's resync: never "real time". */
  resync: z.boolean().default(false),
});
export type CbmsSyncPayload = z.output<typeof cbmsSyncPayload>;

export const cbmsSyncJob = (deps: CbmsDeps): JobDefinition<CbmsSyncPayload> =>
  defineJob({
    name: 'tax.cbms_sync',
    payload: cbmsSyncPayload,
    attempts: CBMS_MAX_TRIES,
    backoffMs: deps.config.CBMS_RETRY_BASE_SECONDS * 1000,
    handler: async (p, job) => {
      const url = deps.config.CBMS_URL;
      if (!url) return;
      const doc = await repo.findDocument(deps.db, p.documentId);
      if (!doc || doc.syncStatus === 'synced') return;
      const at = deps.clock.now();
      const realtime = job.attempt === 1 && !p.resync;
      const outcome = await postToCbms(
        { url, username: deps.config.CBMS_USERNAME ?? '', password: deps.config.CBMS_PASSWORD ?? '' },
        doc,
        realtime,
        at,
      );
      const last = job.attempt >= CBMS_MAX_TRIES;
      const syncStatus =
        outcome.kind === 'synced' ? 'synced' : outcome.kind === 'credentials' || last ? 'failed' : 'pending';
      const effect = {
        synced: 'synced',
        credentials: 'wrong credentials: failed, no more tries, admins alerted',
        retry: last ? `failed after ${CBMS_MAX_TRIES} tries` : 'will be tried again',
      }[outcome.kind];
      // The attempt and its effect go to the document and, with no admin, to the activity log.
      await inTransaction(deps.db, async (tx, afterCommit) => {
        await repo.recordSync(tx, doc.id, { syncStatus, lastSyncReply: outcome.reply, at, attempted: true });
        await recordActivity(tx, {
          adminId: null,
          action: 'sync_attempt',
          entityType: doc.kind,
          entityId: doc.id,
          summary: `CBMS sync attempt ${doc.syncAttempts + 1} of ${KIND_WORDS[doc.kind]} ${doc.number}${realtime ? ' (real time)' : ''}: reply ${outcome.reply}, ${effect}`,
          at,
        });
        if (outcome.kind !== 'credentials') return;
        await deps.notifier.notifyAdmins(tx, afterCommit, {
          permission: invoicePermissions.SYNC,
          type: 'CBMS_CREDENTIALS_REJECTED',
          title: 'CBMS refused the credentials',
          body: `CBMS answered 100 (wrong user name or password) for ${KIND_WORDS[doc.kind]} ${doc.number}. Check CBMS_USERNAME and CBMS_PASSWORD, then resync.`,
          data: { documentId: doc.id, documentType: doc.kind, number: doc.number },
        });
      });
      if (outcome.kind !== 'retry') return;
      if (last) {
        deps.log.warn({ documentId: doc.id, reply: outcome.reply }, 'CBMS sync failed after every try');
        return;
      }
      throw new Error(`CBMS did not take ${doc.number}: ${outcome.reply}`);
    },
  });

/** An admin's resync of a document CBMS does not have yet: pending again, a fresh job. */
export async function resyncDocument(
  deps: { db: Db; clock: Clock; config: Pick<Config, 'CBMS_URL'> },
  p: { kind: TaxDocumentKind; id: number; adminId: string },
  enqueue: (documentId: number) => Promise<void>,
): Promise<repo.TaxDocumentRow> {
  const doc = await inTransaction(deps.db, async (tx) => {
    const current = await repo.findDocument(tx, p.id, p.kind);
    if (!current)
      throw p.kind === 'invoice' ? invoiceErrors.invoiceNotFound() : invoiceErrors.creditNoteNotFound();
    if (!deps.config.CBMS_URL) throw invoiceErrors.syncNotConfigured();
    if (current.syncStatus === 'synced') throw invoiceErrors.alreadySynced();
    const at = deps.clock.now();
    await repo.recordSync(tx, current.id, {
      syncStatus: 'pending',
      lastSyncReply: current.lastSyncReply,
      at,
      attempted: false,
    });
    await recordActivity(tx, {
      adminId: p.adminId,
      action: 'resync',
      entityType: current.kind,
      entityId: current.id,
      summary: `Sent ${KIND_WORDS[current.kind]} ${current.number} to CBMS again (was ${current.syncStatus})`,
      at,
    });
    return (await repo.findDocument(tx, current.id))!;
  });
  await enqueue(doc.id);
  return doc;
}
