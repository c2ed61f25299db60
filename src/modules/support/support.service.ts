// What every support service function is handed: the ports it uses, the realtime events of
// message writes and the customer notifier. Created once in the module's register.
import type { Config } from '../../config';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/database';
import type { Outgoing } from '../../platform/delivery/delivery';
import type { MailMessage } from '../../platform/mail/mailer';
import type { Realtime } from '../../platform/realtime/realtime';
import { findUserContacts } from '../identity';
import type { Notifier } from '../notifications';
import type { SupportEvents } from './realtime/support-events';

export interface SupportDeps {
  db: Db;
  clock: Clock;
  config: Config;
  mail: Outgoing<MailMessage>;
  events: SupportEvents;
  notifier: Notifier;
  /** Closes the sockets of a revoked guest token. */
  realtime: Pick<Realtime, 'disconnectCredentials'>;
}

export const isoOrNull = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** Account holders' current names by id, for the back office's conversation lists (one read). */
export async function customerNamesOf(
  db: Db,
  rows: ReadonlyArray<{ customerId: string | null }>,
): Promise<Map<string, string>> {
  const ids = rows.flatMap((r) => (r.customerId ? [r.customerId] : []));
  if (!ids.length) return new Map();
  const contacts = await findUserContacts(db, ids);
  return new Map([...contacts].map(([id, c]) => [id, c.name]));
}

/** The name a conversation's list line shows for its customer; null for a guest or a gone account. */
export const customerNameIn = (names: Map<string, string>, customerId: string | null): string | null =>
  (customerId && names.get(customerId)) || null;
