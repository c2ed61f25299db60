// Notices to an admin about their own two-factor sign-in (docs/decisions.md "Enrolment": every
// change is an email to the admin), so a change they did not make does not go unnoticed.
import type { MailMessage } from '../../../platform/mail/mailer';
import { message } from '../auth/auth.mail';

interface Notice {
  to: string;
  name: string;
  storeName: string;
}

const notice = (input: Notice, subject: string, lead: string): MailMessage =>
  message({
    to: input.to,
    subject: `${input.storeName}: ${subject}`,
    greeting: `Hello ${input.name},`,
    lead,
    footer: 'If this was not you, tell the store owner at once and change your password.',
  });

export const twoFactorMail = {
  enabled: (input: Notice) =>
    notice(
      input,
      'two-factor sign-in turned on',
      'Two-factor sign-in is now on for your back-office account: signing in asks for a code from your authenticator app. Keep your recovery codes somewhere safe.',
    ),
  disabled: (input: Notice) =>
    notice(
      input,
      'two-factor sign-in turned off',
      'Two-factor sign-in was turned off for your back-office account: signing in asks only for your password now.',
    ),
  reset: (input: Notice & { by: string }) =>
    notice(
      input,
      'two-factor sign-in reset',
      `${input.by} reset two-factor sign-in for your back-office account and signed you out everywhere. Sign in with your password and turn it on again.`,
    ),
  recoveryCodesRenewed: (input: Notice) =>
    notice(
      input,
      'new recovery codes',
      'New recovery codes were made for your back-office account; the old ones no longer work.',
    ),
  recoveryCodeUsed: (input: Notice & { left: number }) =>
    notice(
      input,
      'a recovery code was used',
      `A recovery code was used to sign in to your back-office account. ${input.left} ${input.left === 1 ? 'code is' : 'codes are'} left.${input.left <= 3 ? ' Make new ones on the Security page.' : ''}`,
    ),
};
