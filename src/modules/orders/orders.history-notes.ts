// The notes the server itself writes in an order's status and fulfilment histories. Each is stored twice: as the
// English sentence `notes` that API clients (the mobile apps) already read, and as a code with
// its parameters, which the back office words in the admin's language (docs/api-notes.md,
// "Status-history note codes"). Notes typed by people (a cancel reason, COD remarks) have no code.

/** Every code, with the English `notes` it stands for. */
const NOTES = {
  /** A COD order was placed. */
  cod_checkout: () => 'Cash on delivery',
  /** An online order was placed; the customer was sent to `gateway`. */
  online_checkout: (p: { gateway: string }) => `Payment by ${p.gateway}`,
  /** The online payment `reference` was verified with its provider. */
  payment_verified: (p: { reference: string }) => `Payment ${p.reference} verified`,
  /** A counter sale was paid through `gateway` (pos_cash, pos_card, …). */
  in_store_payment: (p: { reference: string; gateway: string }) =>
    `In-store payment ${p.reference} (${p.gateway})`,
  /** The online payment failed; `reason` is the payments module's machine reason. */
  payment_failed: (p: { reason: string }) => p.reason,
  /** The unpaid online order was given up after ORDER_PAYMENT_TIMEOUT_MINUTES. */
  payment_timeout: () => 'payment_timeout',
  /** The unpaid online order was replaced by a new checkout of the same cart. */
  replaced_by_new_checkout: () => 'Replaced by a new checkout of the same cart',
  /** A counter sale was rung up. */
  in_store_sale: () => 'In-store sale',
  /** Fulfilment: a counter sale was handed over at the counter (each step of its short path). */
  picked_up_in_store: () => 'Picked up in store',
} as const;

export type HistoryNoteCode = keyof typeof NOTES;
export const HISTORY_NOTE_CODES = Object.keys(NOTES) as HistoryNoteCode[];

type ParamsOf<C extends HistoryNoteCode> = Parameters<(typeof NOTES)[C]> extends [infer P] ? P : undefined;

/** A history note as stored: the English text, and the code with its parameters. */
export interface HistoryNote {
  notes: string;
  noteCode: HistoryNoteCode;
  noteParams: Record<string, string> | null;
}

/** `historyNote('payment_verified', { reference })` → the three columns of the row. */
export function historyNote<C extends HistoryNoteCode>(
  code: C,
  ...params: ParamsOf<C> extends undefined ? [] : [ParamsOf<C>]
): HistoryNote {
  const values = (params[0] ?? null) as Record<string, string> | null;
  const words = NOTES[code] as (p: Record<string, string> | null) => string;
  return { notes: words(values), noteCode: code, noteParams: values };
}
