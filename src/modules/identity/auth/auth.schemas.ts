import { z } from 'zod';

export const email = z.email().max(320);
/** docs/decisions.md "Passwords": 8 to 128 characters. */
export const password = z.string().min(8, 'must have at least 8 characters').max(128);
// A code or token of the wrong shape is a wrong code (the flow's own error), not a validation error.
const code = z.string().trim().min(1).max(32);
const token = z.string().trim().min(1).max(512);

/** `{ token }` or `{ email, code }`: a link from the email, or the code typed by hand. */
const tokenOrEmailCode = {
  token: token.optional(),
  email: email.optional(),
  code: code.optional(),
};
const requireTokenOrEmailCode = (
  body: { token?: string; email?: string; code?: string },
  ctx: z.RefinementCtx,
) => {
  if (body.token === undefined && (body.email === undefined || body.code === undefined)) {
    ctx.addIssue({ code: 'custom', path: ['token'], message: 'give either token, or email and code' });
  }
};

export const phone = z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 number such as +9779812345678');

/** docs/decisions.md, "Device info": required on customer register and login, optional on admin login. */
export const deviceInfo = z.object({
  deviceId: z.string().trim().min(1).max(255),
  deviceType: z.string().trim().min(1).max(255),
  deviceName: z.string().trim().min(1).max(255),
  pushToken: z.string().trim().min(1).max(4096).optional(),
});

export const profile = z
  .object({
    id: z.uuid(),
    name: z.string(),
    email: z.string(),
    image: z.string().nullable(),
    emailVerified: z.boolean(),
    phone: z.string().nullable(),
    phoneVerified: z.boolean(),
    role: z.string(),
  })
  .meta({ id: 'UserProfile' });
export const profileWithPassword = profile
  .extend({ hasPassword: z.boolean() })
  .meta({ id: 'UserProfileWithPassword' });

export const adminProfile = profileWithPassword
  .extend({ twoFactorEnabled: z.boolean() })
  .meta({ id: 'AdminProfile' });

export const sessionTokens = z
  .object({ sessionId: z.uuid(), accessToken: z.string(), refreshToken: z.string() })
  .meta({ id: 'SessionTokens' });
export const signedIn = z.object({ user: profile, tokens: sessionTokens });

export const adminLoginBody = z.object({
  email,
  password: z.string().min(1).max(128),
  deviceInfo: deviceInfo.optional(),
});
export const customerLoginBody = adminLoginBody.extend({ deviceInfo });
export const registerBody = z.object({
  name: z.string().trim().min(1).max(255),
  email,
  password,
  deviceInfo,
});
export const refreshBody = z.object({ refreshToken: z.string().min(1).max(512) });
/** The console sends none: its token is in the refresh cookie (auth/refresh-cookie.ts). */
export const adminRefreshBody = z.object({ refreshToken: z.string().min(1).max(512).optional() });
export const emailBody = z.object({ email });
export const resetBody = z
  .object({ ...tokenOrEmailCode, newPassword: password })
  .superRefine(requireTokenOrEmailCode);
export const confirmEmailBody = z.object(tokenOrEmailCode).superRefine(requireTokenOrEmailCode);
export const setPasswordBody = z.object({
  currentPassword: z.string().min(1).max(128).optional(),
  newPassword: password,
});
export const phoneRequestBody = z.object({ phone });
export const phoneConfirmBody = z.object({ phone, code });
export const permissionsView = z.object({ role: z.string(), permissions: z.array(z.string()) });
export const deletionBody = z.object({ password: z.string().min(1).max(128).optional() }).default({});
export const deletionView = z.object({ deletionScheduledAt: z.iso.datetime() });
