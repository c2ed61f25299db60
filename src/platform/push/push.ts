// Push port: notifications to a customer's devices. The dev outbox (DATA_DIR/outbox/push) by
// default, Firebase Cloud Messaging when PUSH_PROVIDER=fcm (fcm.ts), the memory sink in tests.
import { ProviderRefusal } from '../delivery/provider-http';
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
  readonly driver: 'outbox' | 'memory' | 'fcm';
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

/** The provider will never deliver to this device token again: remove it where it is stored. */
export class PushTokenRejected extends ProviderRefusal {
  override name = 'PushTokenRejected';
  constructor(
    readonly token: string,
    provider: string,
    reason: string,
  ) {
    super(provider, reason);
  }
}
