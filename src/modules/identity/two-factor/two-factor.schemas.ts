import { z } from 'zod';
import { deviceInfo } from '../auth/auth.schemas';

// A code of the wrong shape is a wrong code (AUTH_2FA_CODE_INVALID), not a validation error.
const code = z.string().trim().min(1).max(32);

export const totpSetup = z
  .object({
    secret: z.string().describe('The secret as base32 (RFC 4648, no padding), for typing into the app'),
    otpauthUrl: z.string().describe('`otpauth://totp/…` for a QR code'),
  })
  .meta({ id: 'TotpSetup' });
export const recoveryCodes = z
  .object({
    recoveryCodes: z
      .array(z.string())
      .describe('Ten single-use codes, `xxxxx-xxxxx`; shown once, stored only as digests'),
  })
  .meta({ id: 'RecoveryCodes' });

export const codeBody = z.object({ code });
export const disableBody = z.object({ password: z.string().min(1).max(128), code });

export const challenge = z
  .object({
    twoFactorRequired: z.literal(true),
    challengeToken: z.string().describe('Answer it at POST /api/auth/login/2fa'),
    methods: z.array(z.enum(['totp', 'recovery_code'])),
  })
  .meta({ id: 'TwoFactorChallenge' });

/** `{ challengeToken, code }` or `{ challengeToken, recoveryCode }`: exactly one of the two. */
export const secondFactorLoginBody = z
  .object({
    challengeToken: z.string().trim().min(1).max(512),
    code: code.optional(),
    recoveryCode: code.optional(),
    deviceInfo: deviceInfo.optional(),
  })
  .superRefine((body, ctx) => {
    if ((body.code === undefined) === (body.recoveryCode === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['code'], message: 'give exactly one of code and recoveryCode' });
    }
  });
