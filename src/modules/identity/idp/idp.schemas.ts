import { z } from 'zod';
import { deviceInfo } from '../auth/auth.schemas';

export const startQuery = z.object({
  redirect_uri: z
    .string()
    .min(1)
    .max(2048)
    .describe('Frontend URL to return to; must be exactly one of IDP_OAUTH_REDIRECT_ALLOWLIST'),
});

// Documentation only: the callback reads its raw query (the provider's parameters are checked
// by openid-client), so a malformed value is a bad state or a provider error, never a 400
// VALIDATION_ERROR the browser would show instead of returning to the app.
const lenient = (description: string) => z.string().optional().catch(undefined).describe(description);
export const callbackQuery = z.looseObject({
  state: lenient('The signed state the start route sent'),
  code: lenient("The provider's authorization code"),
  error: lenient("The provider's error, when sign-in failed or was declined"),
});

export const exchangeBody = z.object({
  // Any string is a code to look up: a wrong one is AUTH_IDP_CODE_INVALID, not a validation error.
  code: z.string().trim().min(1).max(512),
  deviceInfo: deviceInfo.optional(),
});
