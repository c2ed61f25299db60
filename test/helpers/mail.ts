// Reading what the app sent: the 6-digit code on its own line and the `token=` of the link.
import type { MailMessage } from '../../src/platform/mail/mailer';
import type { TestApp } from './app';

export interface ReadMail {
  message: MailMessage;
  code: string;
  token: string | undefined;
}

/** The newest message to `to`, after the delivery jobs ran. */
export async function lastMailTo(t: TestApp, to: string): Promise<ReadMail | undefined> {
  await t.drainJobs();
  const message = [...t.mail].reverse().find((m) => m.to === to);
  if (!message) return undefined;
  const code = /^(\d{6})$/m.exec(message.text)?.[1] ?? '';
  const token = /[?&]token=([^\s&]+)/.exec(message.text)?.[1];
  return { message, code, token: token ? decodeURIComponent(token) : undefined };
}

export async function mailCountTo(t: TestApp, to: string): Promise<number> {
  await t.drainJobs();
  return t.mail.filter((m) => m.to === to).length;
}
