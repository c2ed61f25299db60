// The inquiry email-verification message. The code stands alone on its own line in the text
// part (docs/decisions.md, "Email messages").

import { escapeHtml } from '../../../platform/mail/html';
import type { MailMessage } from '../../../platform/mail/mailer';

export function inquiryVerificationEmail(input: {
  to: string;
  name: string | null;
  trackingCode: string;
  code: string;
  minutes: number;
}): MailMessage {
  const greeting = `Hello${input.name ? ` ${input.name}` : ''},`;
  const lead = `Use this code to confirm your email address for support inquiry ${input.trackingCode}:`;
  const footer = `The code expires in ${input.minutes} minutes. If you did not ask for it, ignore this email.`;
  return {
    to: input.to,
    subject: `Your verification code for ${input.trackingCode}`,
    text: [greeting, '', lead, '', input.code, '', footer].join('\n'),
    html: [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(lead)}</p>`,
      `<p style="font-size:24px;letter-spacing:4px"><strong>${input.code}</strong></p>`,
      `<p>${escapeHtml(footer)}</p>`,
    ].join('\n'),
  };
}
