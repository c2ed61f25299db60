// Push port: notifications to a customer's devices. No push provider is wired yet: the dev
// outbox (DATA_DIR/outbox/push) is the only delivery, and tests use the memory sink. A
// provider adapter (FCM, APNs) implements `PushSender`.
import { type OutboxLog, writeToOutbox } from '../outbox';

export interface PushMessage {
  /** One device's push token, as the app reported it at login. */
  to: string;
  title: string;
  body: string;
  /** What the app needs to open the right screen (e.g. `{ type, supportRequestId }`). */
  data?: Record<string, unknown>;
}

export interface PushSender {
  readonly driver: 'outbox' | 'memory';
  send(message: PushMessage): Promise<void>;
}

export function createOutboxPush(opts: { dataDir: string; log: OutboxLog }): PushSender {
  return {
    driver: 'outbox',
    send: (message) => writeToOutbox(opts.dataDir, 'push', { ...message }, opts.log),
  };
}

/** Keeps messages in memory: the test sink. */
export function createMemoryPush(): PushSender & { sent: PushMessage[] } {
  const sent: PushMessage[] = [];
  return {
    driver: 'memory',
    sent,
    async send(message) {
      sent.push(message);
    },
  };
}
