// Nepali mobile numbers: +977 followed by ten digits starting with 9 (98x Ncell/NTC, 97x NTC
// CDMA, 96x Smart). Both Nepali SMS providers take them as the bare ten digits.
import { type ProviderAnswer, ProviderRefusal, postForm } from '../delivery/provider-http';
import type { SmsMessage } from './sms';

const NEPALI_MOBILE = /^\+9779\d{9}$/;

export const isNepaliMobile = (e164: string) => NEPALI_MOBILE.test(e164);

/** `+9779812345678` → `9812345678`, the form Sparrow and Aakash document. */
export function nationalMobileNumber(e164: string): string {
  if (!isNepaliMobile(e164)) throw new Error('not a Nepali mobile number');
  return e164.slice(4);
}

/**
 * Posts one SMS to a Nepali provider as a UTF-8 form, the number in its 10-digit form; a number
 * that is not a Nepali mobile is refused without calling the provider.
 */
export function postNepaliSms(opts: {
  provider: string;
  url: string;
  timeoutMs: number;
  message: SmsMessage;
  fields: (mobile: string) => Record<string, string>;
}): Promise<ProviderAnswer> {
  if (!isNepaliMobile(opts.message.to)) {
    return Promise.reject(new ProviderRefusal(opts.provider, 'not a Nepali mobile number'));
  }
  return postForm(
    opts.provider,
    opts.url,
    opts.fields(nationalMobileNumber(opts.message.to)),
    opts.timeoutMs,
  );
}
