// Aakash SMS, API v3: POST /sms/v3/send/ with form fields `auth_token`, `to` (10-digit mobile
// numbers) and `text`. It answers HTTP 200 either way: `{ error: false, message, data: { valid:
// [...], invalid: [...] } }` when queued, `{ error: true, message }` when refused (bad token,
// not enough balance, a missing field). A number it will not deliver to is listed in
// `data.invalid` with no entry in `data.valid`.
import { isRetryableStatus, ProviderRefusal, ProviderUnavailable } from '../delivery/provider-http';
import { isNepaliMobile, postNepaliSms } from './nepal-mobile';
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
      const { status, body } = await postNepaliSms({
        provider: 'aakash',
        url: opts.url,
        timeoutMs: opts.timeoutMs,
        message,
        fields: (to) => ({ auth_token: opts.token, to, text: message.text }),
      });
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
