// Aakash SMS, API v3: POST /sms/v3/send/ with form fields `auth_token`, `to` (10-digit mobile
// numbers) and `text`. It answers HTTP 200 either way: `{ error: false, message, data: { valid:
// [...], invalid: [...] } }` when queued, `{ error: true, message }` when refused (bad token,
// not enough balance, a missing field). A number it will not deliver to is listed in
// `data.invalid` with no entry in `data.valid`.
import {
  FORM_UTF8,
  isRetryableStatus,
  ProviderRefusal,
  ProviderUnavailable,
  postToProvider,
} from '../delivery/provider-http';
import { isNepaliMobile, nationalMobileNumber } from './nepal-mobile';
import type { SmsSender } from './sms';

interface AakashAnswer {
  error?: unknown;
  message?: unknown;
  data?: { valid?: unknown; invalid?: Array<{ status?: unknown }> };
}

export function createAakashSms(opts: { token: string; url: string; timeoutMs: number }): SmsSender {
  return {
    driver: 'aakash',
    accepts: isNepaliMobile,
    async send(message) {
      if (!isNepaliMobile(message.to)) throw new ProviderRefusal('aakash', 'not a Nepali mobile number');
      const { status, body } = await postToProvider(
        'aakash',
        opts.url,
        {
          headers: { 'content-type': FORM_UTF8, accept: 'application/json' },
          body: new URLSearchParams({
            auth_token: opts.token,
            to: nationalMobileNumber(message.to),
            text: message.text,
          }),
        },
        opts.timeoutMs,
      );
      if (isRetryableStatus(status)) throw new ProviderUnavailable('aakash', `HTTP ${status}`);
      const answer = (body ?? {}) as AakashAnswer;
      if (answer.error === true) throw new ProviderRefusal('aakash', String(answer.message));
      if (answer.error === false) {
        const valid = Array.isArray(answer.data?.valid) ? answer.data.valid : [];
        if (valid.length > 0) return;
        const invalid = answer.data?.invalid?.[0]?.status;
        throw new ProviderRefusal('aakash', `number not accepted (${String(invalid ?? answer.message)})`);
      }
      throw new ProviderUnavailable('aakash', `unexpected answer (HTTP ${status})`);
    },
  };
}
