// SMS port: the dev outbox (DATA_DIR/outbox/sms) by default, Sparrow SMS or Aakash SMS when
// SMS_PROVIDER names one (sparrow.ts, aakash.ts), and the memory sink in tests.
import { type OutboxLog, writeToOutbox } from '../outbox';

export interface SmsMessage {
  /** E.164 number, e.g. +9779812345678. */
  to: string;
  text: string;
}

export type SmsDriver = 'outbox' | 'memory' | 'sparrow' | 'aakash';

export interface SmsSender {
  readonly driver: SmsDriver;
  /**
   * Whether this sender can deliver to `to` (E.164). Asked at the request, before any code is
   * made: the Nepali providers deliver to Nepali mobile numbers only.
   */
  accepts(to: string): boolean;
  send(message: SmsMessage): Promise<void>;
}

const anyNumber = () => true;

export function createOutboxSms(opts: { dataDir: string; log: OutboxLog }): SmsSender {
  return {
    driver: 'outbox',
    accepts: anyNumber,
    send: (message) => writeToOutbox(opts.dataDir, 'sms', { ...message }, opts.log),
  };
}

export function createMemorySms(): SmsSender & { sent: SmsMessage[] } {
  const sent: SmsMessage[] = [];
  return {
    driver: 'memory',
    sent,
    accepts: anyNumber,
    async send(message) {
      sent.push(message);
    },
  };
}
