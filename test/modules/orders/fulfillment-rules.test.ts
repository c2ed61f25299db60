// The fulfilment state machine, every (type, from, to) triple against the interface's table.
import { describe, expect, it } from 'vitest';
import {
  ALLOWED_FULFILLMENT_MOVES,
  checkFulfillmentMove,
  eligibleFulfillmentActions,
  FULFILLMENT_STATUSES,
  type FulfillmentStatus,
  fulfillmentTimeline,
  ORDER_TYPES,
  type OrderType,
} from '../../../src/modules/orders/fulfillment/fulfillment.rules';

// The one-step-forward moves the interface allows, per order type (cancellation aside).
const forward: Record<OrderType, Array<[FulfillmentStatus, FulfillmentStatus]>> = {
  physical: [
    ['received', 'ready'],
    ['ready', 'picked_up'],
    ['picked_up', 'in_transit'],
    ['in_transit', 'delivered'],
  ],
  mixed: [
    ['received', 'ready'],
    ['ready', 'picked_up'],
    ['picked_up', 'in_transit'],
    ['in_transit', 'delivered'],
  ],
  digital: [['received', 'key_sent']],
  care_package: [['received', 'activated']],
};
const closed: FulfillmentStatus[] = ['delivered', 'key_sent', 'activated', 'cancelled'];

describe('checkFulfillmentMove, every type × from × to', () => {
  const cases = ORDER_TYPES.flatMap((type) =>
    FULFILLMENT_STATUSES.flatMap((from) =>
      FULFILLMENT_STATUSES.map((to) => {
        let expected: string;
        if (from === to) expected = 'skip';
        else if (closed.includes(from)) expected = 'closed';
        else if (forward[type].some(([f, t]) => f === from && t === to)) expected = 'move';
        else expected = 'invalid';
        return [type, from, to, expected] as const;
      }),
    ),
  );
  it.each(cases)('%s: %s → %s is %s', (type, from, to, expected) => {
    expect(checkFulfillmentMove(type, from, to).kind).toBe(expected);
  });

  it('names the interface’s invalid examples invalid', () => {
    const invalid: Array<[FulfillmentStatus, FulfillmentStatus]> = [
      ['received', 'picked_up'],
      ['received', 'in_transit'],
      ['received', 'delivered'],
      ['ready', 'in_transit'],
      ['ready', 'delivered'],
      ['picked_up', 'delivered'],
    ];
    for (const [from, to] of invalid) expect(checkFulfillmentMove('physical', from, to).kind).toBe('invalid');
    for (const earlier of ['received', 'ready', 'picked_up', 'in_transit'] as const) {
      expect(checkFulfillmentMove('physical', 'delivered', earlier).kind).toBe('closed');
    }
  });
});

describe('ALLOWED_FULFILLMENT_MOVES (the database CHECK)', () => {
  it('holds exactly the forward steps and cancellation from every open state', () => {
    const expected = new Set([
      'received>ready',
      'ready>picked_up',
      'picked_up>in_transit',
      'in_transit>delivered',
      'received>key_sent',
      'received>activated',
      'received>cancelled',
      'ready>cancelled',
      'picked_up>cancelled',
      'in_transit>cancelled',
    ]);
    expect(new Set(ALLOWED_FULFILLMENT_MOVES.map(([f, t]) => `${f}>${t}`))).toEqual(expected);
  });
});

describe('eligibleFulfillmentActions', () => {
  it.each([
    ['physical', 'received', false, ['advance']],
    ['physical', 'in_transit', false, ['advance']],
    ['physical', 'delivered', false, []],
    ['mixed', 'ready', false, ['advance']],
    ['mixed', 'delivered', false, []],
    ['digital', 'received', false, ['send-digital-delivery']],
    ['digital', 'key_sent', false, []],
    ['care_package', 'received', true, ['activate-care-package']],
    ['care_package', 'received', false, []],
    ['care_package', 'activated', false, []],
  ] as const)('%s at %s (pending subscription: %s) → %j', (type, status, pending, actions) => {
    expect(eligibleFulfillmentActions(type, status, pending)).toEqual(actions);
  });
});

describe('fulfillmentTimeline', () => {
  it('shows the physical path with the steps done and the current one', () => {
    expect(fulfillmentTimeline('physical', 'picked_up')).toEqual([
      { status: 'received', label: 'Order received', completed: true, current: false },
      { status: 'ready', label: 'Ready for dispatch', completed: true, current: false },
      { status: 'picked_up', label: 'Picked up', completed: true, current: true },
      { status: 'in_transit', label: 'In transit', completed: false, current: false },
      { status: 'delivered', label: 'Delivered', completed: false, current: false },
    ]);
  });
  it('shows the digital and care-package paths', () => {
    expect(fulfillmentTimeline('digital', 'key_sent').map((s) => [s.status, s.completed, s.current])).toEqual(
      [
        ['received', true, false],
        ['key_sent', true, true],
      ],
    );
    expect(fulfillmentTimeline('care_package', 'received').map((s) => s.status)).toEqual([
      'received',
      'activated',
    ]);
  });
  it('marks nothing current on a cancelled order', () => {
    expect(fulfillmentTimeline('physical', 'cancelled').every((s) => !s.current && !s.completed)).toBe(true);
  });
});
