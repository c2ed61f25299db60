// SMS port. No SMS provider is wired yet: the dev outbox (DATA_DIR/outbox/sms) is the only
// delivery, and tests use the memory sink. A provider adapter implements `SmsSender`.
import { type OutboxLog, writeToOutbox } from '../outbox';

export interface SmsMessage {
  /** E.164 number, e.g. +9779812345678. */
  to: string;
  text: string;
}

export interface SmsSender {
  readonly driver: 'outbox' | 'memory';
  send(message: SmsMessage): Promise<void>;
}

export function createOutboxSms(opts: { dataDir: string; log: OutboxLog }): SmsSender {
  return {
    driver: 'outbox',
    send: (message) => writeToOutbox(opts.dataDir, 'sms', { ...message }, opts.log),
  };
}

export function createMemorySms(): SmsSender & { sent: SmsMessage[] } {
  const sent: SmsMessage[] = [];
  return {
    driver: 'memory',
    sent,
    async send(message) {
      sent.push(message);
    },
  };
}
