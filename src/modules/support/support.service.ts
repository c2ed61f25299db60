// What every support service function is handed: the ports it uses, the realtime events of
// message writes and the customer notifier. Created once in the module's register.
import type { Config } from '../../config';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/database';
import type { Outgoing } from '../../platform/delivery/delivery';
import type { MailMessage } from '../../platform/mail/mailer';
import type { Realtime } from '../../platform/realtime/realtime';
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
