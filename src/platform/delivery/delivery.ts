// Mail, SMS and push leave through the job queue: a request that sends a message answers at once
// (and in the same time whether or not a message went out, which matters for "forgot
// password"), and a provider outage is retried with backoff instead of failing the request.
// A provider's refusal (bad number, no credit, bad token) is not retried; a push token FCM
// no longer knows is handed to whoever stores it, so it is not used again.
import type { Counter } from 'prom-client';
import { z } from 'zod';
import { defineJob, type JobQueue, PermanentJobError } from '../jobs/jobs';
import type { Mailer, MailMessage } from '../mail/mailer';
import { type PushMessage, type PushSender, PushTokenRejected } from '../push/push';
import type { SmsMessage, SmsSender } from '../sms/sms';

const mailMessage = z.object({
  to: z.string().min(3),
  subject: z.string().min(1),
  text: z.string(),
  html: z.string().optional(),
});
const smsMessage = z.object({ to: z.string().min(3), text: z.string().min(1) });
const pushMessage = z.object({
  to: z.string().min(1),
  title: z.string().min(1),
  body: z.string(),
  data: z.record(z.string(), z.unknown()).optional(),
});

/** Tries per message: with the default 30 s base, 30 s + 1 + 2 + 4 min before giving up. */
export const DELIVERY_ATTEMPTS = 5;

/** What modules use to send: the message is queued, a worker delivers it. */
export interface Outgoing<M> {
  readonly driver: string;
  send(message: M): Promise<void>;
}

export interface SmsOutgoing extends Outgoing<SmsMessage> {
  /** Whether the configured provider delivers to this E.164 number at all (ask before making a code). */
  accepts(to: string): boolean;
}

export interface PushOutgoing extends Outgoing<PushMessage> {
  /** Called with a device token the provider reports as gone for good, to remove it where it is stored. */
  onRejectedToken(forget: (token: string) => Promise<void>): void;
}

export type DeliveryOutcome = 'sent' | 'retrying' | 'failed' | 'refused' | 'token_removed';

export function queuedDelivery(opts: {
  jobs: JobQueue;
  mailer: Mailer;
  sms: SmsSender;
  push: PushSender;
  /** First retry delay; each further retry waits twice as long. */
  retryBaseMs: number;
  /** Counts every try by channel, provider and outcome. */
  counter?: Counter<'channel' | 'provider' | 'outcome'>;
  log?: (fields: Record<string, unknown>, msg: string) => void;
}): { mail: Outgoing<MailMessage>; sms: SmsOutgoing; push: PushOutgoing } {
  const forgetters: Array<(token: string) => Promise<void>> = [];
  const count = (channel: string, provider: string, outcome: DeliveryOutcome) =>
    opts.counter?.inc({ channel, provider, outcome });

  const deliveryJob = <M>(
    name: string,
    channel: string,
    provider: string,
    payload: z.ZodType<M>,
    send: (message: M) => Promise<void>,
  ) => {
    const job = defineJob({
      name,
      payload,
      attempts: DELIVERY_ATTEMPTS,
      backoffMs: opts.retryBaseMs,
      async handler(message: M, ctx) {
        try {
          await send(message);
          count(channel, provider, 'sent');
        } catch (error) {
          if (error instanceof PushTokenRejected) {
            for (const forget of forgetters) await forget(error.token);
            count(channel, provider, 'token_removed');
            opts.log?.({ provider, reason: error.reason }, 'push token rejected by the provider and removed');
            return;
          }
          if (error instanceof PermanentJobError) count(channel, provider, 'refused');
          else count(channel, provider, ctx.attempt < DELIVERY_ATTEMPTS ? 'retrying' : 'failed');
          throw error;
        }
      },
    });
    opts.jobs.register(job);
    return job;
  };
  const { mailer, sms, push } = opts;
  const deliverMail = deliveryJob('mail.deliver', 'mail', mailer.driver, mailMessage, (m) => mailer.send(m));
  const deliverSms = deliveryJob('sms.send', 'sms', sms.driver, smsMessage, (m) => sms.send(m));
  const deliverPush = deliveryJob('push.send', 'push', push.driver, pushMessage, (m) => push.send(m));
  return {
    mail: { driver: mailer.driver, send: (message) => opts.jobs.enqueue(deliverMail, message) },
    sms: {
      driver: sms.driver,
      accepts: (to) => sms.accepts(to),
      send: (message) => opts.jobs.enqueue(deliverSms, message),
    },
    push: {
      driver: push.driver,
      send: (message) => opts.jobs.enqueue(deliverPush, message),
      onRejectedToken: (forget) => forgetters.push(forget),
    },
  };
}
