// Nepali mobile numbers: +977 followed by ten digits starting with 9 (98x Ncell/NTC, 97x NTC
// CDMA, 96x Smart). Both Nepali SMS providers take them as the bare ten digits.

const NEPALI_MOBILE = /^\+9779\d{9}$/;

export const isNepaliMobile = (e164: string) => NEPALI_MOBILE.test(e164);

/** `+9779812345678` → `9812345678`, the form Sparrow and Aakash document. */
export function nationalMobileNumber(e164: string): string {
  if (!isNepaliMobile(e164)) throw new Error('not a Nepali mobile number');
  return e164.slice(4);
}
