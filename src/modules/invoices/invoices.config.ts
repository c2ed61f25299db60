// The tax documents' settings: the seller, VAT, numbering and CBMS (docs/api-notes.md, "Tax
// invoices in Nepal"). src/config.ts composes them with the others.
import { z } from 'zod';
import { bool, int, optionalString, type RefuseSetting, setting } from '../../platform/settings';

export const invoiceSettings = {
  TAX_INVOICES_ENABLED: setting({
    doc: 'When true, Pasal issues Nepali tax invoices and credit notes (IRD e-billing): an invoice when an order is paid (online payment verified, COD collected, POS payment), a credit note when a paid order is refunded or cancelled. False: a store not registered for VAT keeps the plain invoice.',
    schema: bool,
    default: 'false',
  }),
  SELLER_NAME: setting({
    doc: 'The seller as registered with the IRD, printed on tax invoices and credit notes. Unset: `STORE_NAME`.',
    schema: optionalString,
  }),
  SELLER_ADDRESS: setting({
    doc: "The seller's registered address, printed on tax invoices and credit notes.",
    schema: z.string().trim().max(200),
    default: 'Kathmandu, Nepal',
  }),
  SELLER_PAN: setting({
    doc: "The seller's PAN/VAT number (9 digits). Production refuses to start with `TAX_INVOICES_ENABLED=true` and no valid PAN.",
    schema: optionalString,
    example: '601234567',
  }),
  VAT_RATE_PERCENT: setting({
    doc: 'VAT rate of tax invoices, in percent.',
    schema: int(0, 100),
    default: '13',
  }),
  PRICES_INCLUDE_VAT: setting({
    doc: "When true, an order's `finalPayable` (shipping included) is VAT-inclusive and the invoice splits it into taxable amount and VAT. False: `finalPayable` is the taxable amount and VAT is added on the invoice.",
    schema: bool,
    default: 'true',
  }),
  INVOICE_NUMBER_PREFIX: setting({
    doc: 'Prefix of tax invoice numbers; the number after it restarts at 1 each Nepali fiscal year.',
    schema: z
      .string()
      .trim()
      .max(20)
      .regex(/^[A-Za-z0-9/-]*$/),
    default: 'INV-',
  }),
  CREDIT_NOTE_NUMBER_PREFIX: setting({
    doc: 'Prefix of credit note numbers; their own series, restarting at 1 each Nepali fiscal year.',
    schema: z
      .string()
      .trim()
      .max(20)
      .regex(/^[A-Za-z0-9/-]*$/),
    default: 'CN-',
  }),
  INVOICE_ABBREVIATED_MAX_NPR: setting({
    doc: 'A sale without a buyer PAN whose total is at most this many NPR gets an abbreviated tax invoice (same series). 0: off.',
    schema: int(0),
    default: '0',
  }),
  CBMS_URL: setting({
    doc: "Base URL of the IRD's Central Billing Monitoring System; when set, every tax invoice and credit note is posted to `{CBMS_URL}/api/bill` or `/api/billreturn` by the job `tax.cbms_sync`. Unset: no sync (`syncStatus` `not_required`).",
    schema: optionalString,
    example: 'https://cbapi.ird.gov.np',
  }),
  CBMS_USERNAME: setting({
    doc: 'CBMS user name given by the IRD.',
    schema: optionalString,
  }),
  CBMS_PASSWORD: setting({
    doc: 'CBMS password given by the IRD (secret). Production refuses to start with `CBMS_URL` set and no password.',
    schema: optionalString,
  }),
  CBMS_RETRY_BASE_SECONDS: setting({
    doc: 'A CBMS post that fails (no answer, or reply 102, 103, 104) is tried again after this many seconds, doubling each time, at most 8 tries in all.',
    schema: int(0, 86_400),
    default: '30',
  }),
} as const;

type InvoiceSettingName = keyof typeof invoiceSettings;
type InvoiceConfig = { [K in InvoiceSettingName]: z.output<(typeof invoiceSettings)[K]['schema']> } & {
  NODE_ENV: string;
};

/** Production needs the seller's PAN to issue invoices, and the CBMS password with its URL. */
export function checkInvoiceSettings(config: InvoiceConfig, refuse: RefuseSetting<InvoiceSettingName>): void {
  if (
    config.NODE_ENV === 'production' &&
    config.TAX_INVOICES_ENABLED &&
    !/^\d{9}$/.test(config.SELLER_PAN ?? '')
  )
    refuse('SELLER_PAN', 'must be the 9-digit PAN when TAX_INVOICES_ENABLED=true in production');
  if (config.NODE_ENV === 'production' && config.CBMS_URL && !config.CBMS_PASSWORD)
    refuse('CBMS_PASSWORD', 'must be set in production when CBMS_URL is set');
}
