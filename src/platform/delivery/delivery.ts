// Mail, SMS and push leave through the job queue: a request that sends a message answers at once
// (and in the same time whether or not a message went out, which matters for "forgot
// password"), and a provider outage is retried with backoff instead of failing the request.
import { z } from 'zod';
import { defineJob, type JobQueue } from '../jobs/jobs';
import type { Mailer, MailMessage } from '../mail/mailer';
import type { PushMessage, PushSender } from '../push/push';
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

/** What modules use to send: the message is queued, a worker delivers it. */
export interface Outgoing<M> {
  readonly driver: string;
  send(message: M): Promise<void>;
}

export function queuedDelivery(opts: { jobs: JobQueue; mailer: Mailer; sms: SmsSender; push: PushSender }): {
  mail: Outgoing<MailMessage>;
  sms: Outgoing<SmsMessage>;
  push: Outgoing<PushMessage>;
} {
  // Providers fail for minutes at a time: five tries, 5 s doubling, is about two and a half minutes.
  const deliveryJob = <M>(name: string, payload: z.ZodType<M>, send: (message: M) => Promise<void>) => {
    const job = defineJob({ name, payload, attempts: 5, backoffMs: 5_000, handler: send });
    opts.jobs.register(job);
    return job;
  };
  const deliverMail = deliveryJob('mail.deliver', mailMessage, (message) => opts.mailer.send(message));
  const deliverSms = deliveryJob('sms.deliver', smsMessage, (message) => opts.sms.send(message));
  const deliverPush = deliveryJob('push.deliver', pushMessage, (message) => opts.push.send(message));
  return {
    mail: { driver: opts.mailer.driver, send: (message) => opts.jobs.enqueue(deliverMail, message) },
    sms: { driver: opts.sms.driver, send: (message) => opts.jobs.enqueue(deliverSms, message) },
    push: { driver: opts.push.driver, send: (message) => opts.jobs.enqueue(deliverPush, message) },
  };
}
