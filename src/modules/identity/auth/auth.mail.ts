// The emails and SMS of sign-in flows. Every code stands alone on its own line in the text
// part (docs/decisions.md, "Email messages"), so a person, or a test reading SMTP, can find it.

import { escapeHtml } from '../../../platform/mail/html';
import type { MailMessage } from '../../../platform/mail/mailer';

export function message(opts: {
  to: string;
  subject: string;
  greeting: string;
  lead: string;
  code?: string;
  link?: { url: string; label: string };
  footer: string;
}): MailMessage {
  const text = [
    opts.greeting,
    '',
    opts.lead,
    ...(opts.code ? ['', opts.code, ''] : ['']),
    ...(opts.link ? [`${opts.link.label}: ${opts.link.url}`, ''] : []),
    opts.footer,
  ].join('\n');
  const html = [
    `<p>${escapeHtml(opts.greeting)}</p>`,
    `<p>${escapeHtml(opts.lead)}</p>`,
    opts.code ? `<p style="font-size:24px;letter-spacing:4px"><strong>${opts.code}</strong></p>` : '',
    opts.link ? `<p><a href="${escapeHtml(opts.link.url)}">${escapeHtml(opts.link.label)}</a></p>` : '',
    `<p>${escapeHtml(opts.footer)}</p>`,
  ].join('\n');
  return { to: opts.to, subject: opts.subject, text, html };
}

export interface CodeMailInput {
  to: string;
  name: string;
  code: string;
  token: string;
  webUrl: string;
}
export type CodeMail = (input: CodeMailInput) => MailMessage;

/** An email that carries a code to type and the same secret as a `token=` link. */
const codeEmail =
  (text: { subject: string; lead: string; path: string; footer: string }): CodeMail =>
  (input) =>
    message({
      to: input.to,
      subject: text.subject,
      greeting: `Hello ${input.name},`,
      lead: text.lead,
      code: input.code,
      link: {
        url: `${input.webUrl}${text.path}?token=${encodeURIComponent(input.token)}`,
        label: 'Or open this link',
      },
      footer: text.footer,
    });

export const verificationEmail = codeEmail({
  subject: 'Verify your email address',
  lead: 'Enter this code in the app to verify your email address. It is valid for 24 hours.',
  path: '/verify-email',
  footer: 'If you did not create an account, ignore this email.',
});

export const passwordResetEmail = codeEmail({
  subject: 'Reset your password',
  lead: 'Enter this code to choose a new password. It is valid for 30 minutes.',
  path: '/reset-password',
  footer: 'If you did not ask for a new password, ignore this email: your password stays as it is.',
});

export const adminInvitationEmail = codeEmail({
  subject: 'Your back-office account',
  lead: 'An account was created for you. Choose your password with this code. It is valid for 24 hours.',
  path: '/reset-password',
  footer: 'If you did not expect this, ignore this email.',
});

export function welcomeEmail(opts: { to: string; name: string; webUrl: string }) {
  return message({
    to: opts.to,
    subject: 'Welcome',
    greeting: `Hello ${opts.name},`,
    lead: 'Your email address is verified and your account is ready.',
    link: { url: opts.webUrl, label: 'Visit the store' },
    footer: 'Thank you for joining us.',
  });
}

/** In the store's name, so the customer knows who texts; no link, so it cannot be phished. */
export const phoneVerificationSms = (opts: { to: string; code: string; storeName: string }) => ({
  to: opts.to,
  text: `${opts.storeName}: your verification code is ${opts.code}. It is valid for 10 minutes.`,
});
