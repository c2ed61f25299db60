// Sparrow SMS, API v2 (docs.sparrowsms.com, "Send SMS"): POST /v2/sms/ with form fields
// `token`, `from` (the identity Sparrow assigned), `to` (10-digit mobile numbers) and `text`.
// Success: HTTP 200 `{ count, response_code: 200, response }`. Refusals: `{ response_code:
// 1000…1013, response }` (documented with HTTP 403; read from the body whatever the status).
import { isRetryableStatus, ProviderRefusal, ProviderUnavailable } from '../delivery/provider-http';
import { isNepaliMobile, postNepaliSms } from './nepal-mobile';
import type { SmsSender } from './sms';

interface SparrowAnswer {
  response_code?: unknown;
  response?: unknown;
}

export function createSparrowSms(opts: {
  token: string;
  from: string;
  url: string;
  timeoutMs: number;
}): SmsSender {
  return {
    driver: 'sparrow',
    accepts: isNepaliMobile,
    async send(message) {
      const { status, body } = await postNepaliSms({
        provider: 'sparrow',
        url: opts.url,
        timeoutMs: opts.timeoutMs,
        message,
        fields: (to) => ({ token: opts.token, from: opts.from, to, text: message.text }),
      });
      const answer = (body ?? {}) as SparrowAnswer;
      if (status === 200 && answer.response_code === 200) return;
      if (isRetryableStatus(status)) throw new ProviderUnavailable('sparrow', `HTTP ${status}`);
      if (typeof answer.response_code === 'number') {
        throw new ProviderRefusal(
          'sparrow',
          `${String(answer.response)} (response_code ${answer.response_code})`,
        );
      }
      // Not Sparrow's answer at all (a proxy page, a wrong SPARROW_SMS_URL): worth another try.
      throw new ProviderUnavailable('sparrow', `unexpected answer (HTTP ${status})`);
    },
  };
}
