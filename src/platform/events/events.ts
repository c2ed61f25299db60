// Domain events: what happened in the store, published by the module where it happened, heard by
// the modules that care, without either knowing the other. A module adds its events to
// `DomainEvents` by declaration merging in its own `<module>.events.ts`:
//
//   declare module '../../platform/events/events' {
//     interface DomainEvents { 'order.paid': { orderId: number } }
//   }
//
// An event is published inside the transaction that makes the change (`publishEvent(tx, …)`),
// and there are two kinds of subscriber (docs/architecture.md, "Domain events"):
// - in the transaction: runs before the commit with the publisher's `tx`, so what it writes
//   commits or rolls back with the change (the webhooks outbox); a throw undoes the change.
// - after commit: runs once the transaction has committed, never for a rolled-back one; a
//   failure is logged and never undoes the change.
import type { Db } from '../db/database';
import { type AfterCommit, transactionScope } from '../db/transaction';

/**
 * Event name → payload. Empty here: each module declares its own events by merging into it.
 * Names are the webhook event types (docs/decisions.md "Event types") where one exists (`order.paid`).
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in the modules.
export interface DomainEvents {}

export type DomainEventName = keyof DomainEvents;

export type InTransactionSubscriber<N extends DomainEventName> = (
  tx: Db,
  payload: DomainEvents[N],
  ctx: { name: N; afterCommit: AfterCommit },
) => Promise<void>;

export type AfterCommitSubscriber<N extends DomainEventName> = (
  payload: DomainEvents[N],
  ctx: { name: N },
) => Promise<void> | void;

/** Ends a subscription (tests that listen for a while; modules listen for the app's life). */
export type Unsubscribe = () => void;

/** What modules get in their register: the two ways to listen. */
export interface DomainEventSubscriptions {
  inTransaction<N extends DomainEventName>(name: N, subscriber: InTransactionSubscriber<N>): Unsubscribe;
  afterCommit<N extends DomainEventName>(name: N, subscriber: AfterCommitSubscriber<N>): Unsubscribe;
}

/**
 * What a module says it publishes and hears, in its `index.ts` (`PasalModule.events`). The
 * platform holds a module to it: subscribing to an event not listed throws at start-up, and a
 * test checks the `publishEvent` calls of its folder and the diagram in docs/architecture.md.
 */
export interface ModuleEvents {
  publishes: readonly DomainEventName[];
  subscribes: readonly DomainEventName[];
}

/** `bus` as one module may use it: only the events its declaration lists. */
export function declaredSubscriptions(
  module: string,
  declared: ModuleEvents | undefined,
  bus: DomainEventSubscriptions,
): DomainEventSubscriptions {
  const check = (name: DomainEventName) => {
    if (!declared?.subscribes.includes(name))
      throw new Error(`module ${module} subscribes to ${name} without declaring it in its index.ts`);
  };
  return {
    inTransaction(name, subscriber) {
      check(name);
      return bus.inTransaction(name, subscriber);
    },
    afterCommit(name, subscriber) {
      check(name);
      return bus.afterCommit(name, subscriber);
    },
  };
}

export interface DomainEventBus extends DomainEventSubscriptions {
  /** Runs the subscribers of one published event (see `publishEvent`). */
  dispatch<N extends DomainEventName>(
    tx: Db,
    afterCommit: AfterCommit,
    name: N,
    payload: DomainEvents[N],
  ): Promise<void>;
}

type AnyInTransaction = InTransactionSubscriber<DomainEventName>;
type AnyAfterCommit = AfterCommitSubscriber<DomainEventName>;

export function createDomainEvents(opts: {
  /** Where an after-commit subscriber's failure is reported. */
  onSubscriberError: (error: unknown, name: string) => void;
}): DomainEventBus {
  const inTx = new Map<string, AnyInTransaction[]>();
  const after = new Map<string, AnyAfterCommit[]>();
  // A new array on each change, so a dispatch running meanwhile keeps the list it started with.
  const add = <S>(map: Map<string, S[]>, name: string, s: S): Unsubscribe => {
    map.set(name, [...(map.get(name) ?? []), s]);
    return () =>
      map.set(
        name,
        (map.get(name) ?? []).filter((x) => x !== s),
      );
  };
  return {
    inTransaction(name, subscriber) {
      return add(inTx, name, subscriber as unknown as AnyInTransaction);
    },
    afterCommit(name, subscriber) {
      return add(after, name, subscriber as unknown as AnyAfterCommit);
    },
    async dispatch(tx, afterCommit, name, payload) {
      for (const subscriber of inTx.get(name) ?? []) {
        await (subscriber as unknown as InTransactionSubscriber<typeof name>)(tx, payload, {
          name,
          afterCommit,
        });
      }
      for (const subscriber of after.get(name) ?? []) {
        afterCommit(async () => {
          try {
            await (subscriber as unknown as AfterCommitSubscriber<typeof name>)(payload, { name });
          } catch (error) {
            opts.onSubscriberError(error, name);
          }
        });
      }
    },
  };
}

// The bus of each database, set once by the platform that opened it: a transaction knows its
// database (`transactionScope`), so a publisher needs nothing but its `tx`, and the services
// that publish keep their dependencies as they are.
const buses = new WeakMap<Db, DomainEventBus>();

/** Makes `bus` the one that events published on `db`'s transactions go to (the first binding stays). */
export function bindDomainEvents(db: Db, bus: DomainEventBus): void {
  if (!buses.has(db)) buses.set(db, bus);
}

/**
 * Publishes an event of the change `tx` is making. Call it inside an `inTransaction` block:
 * in-transaction subscribers run now, with `tx`; after-commit ones once it has committed.
 * On a database handle outside any transaction, each statement commits by itself, so both
 * kinds run now. Where no platform bound a bus (a script on a bare database) nobody listens.
 */
export async function publishEvent<N extends DomainEventName>(
  tx: Db,
  name: N,
  payload: DomainEvents[N],
): Promise<void> {
  const scope = transactionScope(tx);
  const bus = buses.get(scope?.root ?? tx);
  if (!bus) return;
  if (scope) return bus.dispatch(tx, scope.afterCommit, name, payload);
  const effects: Array<() => void | Promise<void>> = [];
  await bus.dispatch(tx, (effect) => effects.push(effect), name, payload);
  for (const effect of effects) await effect();
}
