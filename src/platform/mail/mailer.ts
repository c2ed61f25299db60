// Mailer port: SMTP when SMTP_URL is set, otherwise a dev outbox (one JSON file a message
// under DATA_DIR/outbox/mail, plus a log line) so codes and links can be read locally.

import { lazyPackage } from '../lazy';
import { type OutboxLog, writeToOutbox } from '../outbox';

const nodemailer = lazyPackage<typeof import('nodemailer')>('nodemailer');

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  readonly driver: 'smtp' | 'outbox' | 'memory';
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

export function createSmtpMailer(opts: { url: string; from: string }): Mailer {
  const transport = nodemailer().createTransport(opts.url);
  return {
    driver: 'smtp',
    async send(message) {
      await transport.sendMail({ from: opts.from, ...message });
    },
    async close() {
      transport.close();
    },
  };
}

export function createOutboxMailer(opts: { dataDir: string; from: string; log: OutboxLog }): Mailer {
  return {
    driver: 'outbox',
    send: (message) => writeToOutbox(opts.dataDir, 'mail', { from: opts.from, ...message }, opts.log),
    async close() {},
  };
}

/** Keeps messages in memory: the test sink. */
export function createMemoryMailer(): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    driver: 'memory',
    sent,
    async send(message) {
      sent.push(message);
    },
    async close() {},
  };
}
