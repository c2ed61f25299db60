// Who may reach a customer's notification, row by row (test/helpers/ownership.ts): another
// customer's id is 404 NOTIFICATION_NOT_FOUND like an unknown one, and leaves it unread.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { createNotifier } from '../../../src/modules/notifications';
import { inTransaction } from '../../../src/platform/db/transaction';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { type OwnershipContext, ownershipTests } from '../../helpers/ownership';

interface Notice {
  id: string;
}

describe('notification ownership', () => {
  let t: TestApp;
  let context: OwnershipContext<Notice>;

  beforeAll(async () => {
    t = await createTestApp();
    const owner = await signedInCustomer(t);
    const title = `Your parcel ${randomUUID()}`;
    const notifier = createNotifier({
      db: t.platform.database.db,
      push: t.platform.outgoing.push,
      clock: t.platform.clock,
      realtime: t.platform.realtime,
    });
    await inTransaction(t.platform.database.db, (tx, afterCommit) =>
      notifier.notifyCustomer(tx, afterCommit, {
        customerId: owner.userId,
        type: 'support.request_reply',
        title,
        body: 'The store answered your ticket',
        data: {},
      }),
    );
    const inbox = (who: SignedIn) =>
      t.app.inject({ method: 'GET', url: '/api/mobile/notifications', headers: who.headers });
    const id = (await inbox(owner)).json().data[0].id as string;
    context = {
      t,
      record: { id },
      actors: {
        owner,
        otherCustomer: await signedInCustomer(t),
        otherAdmin: await signedInAdmin(t, { superadmin: true }),
        anonymous: { headers: {} },
      },
      secrets: [id, title],
      // Unread count and read time as the owner sees them: a refused read must change neither.
      snapshot: async () => {
        const res = (await inbox(owner)).json();
        return { unread: res.meta.unreadCount, items: res.data };
      },
    };
  });
  afterAll(() => t.close());

  const read = (r: Notice) => `/api/mobile/notifications/${r.id}/read`;
  ownershipTests(
    () => context,
    [
      { method: 'PATCH', url: read, as: 'otherCustomer', expect: 404, errorCode: 'NOTIFICATION_NOT_FOUND' },
      { method: 'PATCH', url: read, as: 'otherAdmin', expect: 403, errorCode: 'AUTH_FORBIDDEN' },
      { method: 'PATCH', url: read, as: 'anonymous', expect: 401, errorCode: 'AUTH_UNAUTHORIZED' },
      {
        method: 'GET',
        url: () => '/api/mobile/notifications',
        as: 'otherCustomer',
        expect: 200,
        shows: false,
      },
      { method: 'GET', url: () => '/api/mobile/notifications', as: 'owner', expect: 200 },
      { method: 'PATCH', url: read, as: 'owner', expect: 200 },
    ],
  );
});
