// Who may reach a repair request, row by row (test/helpers/ownership.ts). The interface's
// codes: another customer's request 403 REPAIR_REQUEST_NOT_OWNED (nothing of it shown, a
// refused cancel leaves it as it was); an admin JWT on a customer route 403 AUTH_FORBIDDEN; an
// admin without the permission 403 AUTH_PERMISSION_DENIED; a customer on an admin route 403.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app';
import { signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { type Credentials, type OwnershipContext, ownershipTests } from '../../helpers/ownership';
import { ADMIN_REPAIRS, REPAIRS } from './calls';

interface Owned {
  id: number;
  publicId: string;
}

describe('repair request ownership', () => {
  let t: TestApp;
  let context: OwnershipContext<Owned>;

  beforeAll(async () => {
    t = await createTestApp();
    const owner = await signedInCustomer(t);
    const superadmin = await signedInAdmin(t, { superadmin: true });
    const model = `model ${randomUUID()}`;
    const description = `shared ${randomUUID()}`;
    const res = await t.app.inject({
      method: 'POST',
      url: REPAIRS,
      headers: owner.headers,
      payload: {
        devices: [{ customBrandName: 'Acer', laptopModel: model, problemDescription: 'No power' }],
        collectionMethod: 'pickup',
        sourceType: 'direct_booking',
        sharedDescription: description,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const publicId = res.json().data.publicId as string;
    const list = await t.app.inject({ method: 'GET', url: ADMIN_REPAIRS, headers: superadmin.headers });
    const id = list.json().data[0].id as number;
    const actors: Record<string, Credentials> = {
      owner,
      otherCustomer: await signedInCustomer(t),
      anonymous: { headers: {} },
      otherAdmin: await signedInAdmin(t, { permissions: ['RepairRequests_READ', 'RepairRequests_UPDATE'] }),
      limitedAdmin: await signedInAdmin(t, { permissions: ['EmiBanks_READ'] }),
    };
    context = {
      t,
      record: { id, publicId },
      actors,
      secrets: [model, description],
      snapshot: async () =>
        (
          await t.app.inject({ method: 'GET', url: `${ADMIN_REPAIRS}/${id}`, headers: superadmin.headers })
        ).json().data,
    };
  });
  afterAll(() => t.close());

  const mine = (r: Owned) => `${REPAIRS}/${r.publicId}`;
  const cancel = (r: Owned) => `${REPAIRS}/${r.publicId}/cancel`;
  const admin = (r: Owned) => `${ADMIN_REPAIRS}/${r.id}`;

  describe('customer routes', () => {
    ownershipTests(
      () => context,
      [
        { method: 'GET', url: mine, as: 'owner', expect: 200 },
        { method: 'GET', url: () => REPAIRS, as: 'owner', expect: 200, shows: 'some' },
        { method: 'GET', url: mine, as: 'otherCustomer', expect: 403, errorCode: 'REPAIR_REQUEST_NOT_OWNED' },
        {
          method: 'PATCH',
          url: cancel,
          as: 'otherCustomer',
          expect: 403,
          errorCode: 'REPAIR_REQUEST_NOT_OWNED',
        },
        { method: 'GET', url: () => REPAIRS, as: 'otherCustomer', expect: 200, shows: false },
        { method: 'GET', url: mine, as: 'anonymous', expect: 401, errorCode: 'AUTH_UNAUTHORIZED' },
        { method: 'PATCH', url: cancel, as: 'anonymous', expect: 401, errorCode: 'AUTH_UNAUTHORIZED' },
        { method: 'GET', url: mine, as: 'otherAdmin', expect: 403, errorCode: 'AUTH_FORBIDDEN' },
        { method: 'PATCH', url: cancel, as: 'otherAdmin', expect: 403, errorCode: 'AUTH_FORBIDDEN' },
      ],
    );
  });

  describe('admin routes', () => {
    ownershipTests(
      () => context,
      [
        { method: 'GET', url: admin, as: 'otherAdmin', expect: 200 },
        { method: 'GET', url: admin, as: 'owner', expect: 403, errorCode: 'AUTH_FORBIDDEN' },
        { method: 'GET', url: admin, as: 'limitedAdmin', expect: 403, errorCode: 'AUTH_PERMISSION_DENIED' },
        {
          method: 'PATCH',
          url: (r) => `${admin(r)}/status`,
          payload: () => ({ status: 'picked_up' }),
          as: 'limitedAdmin',
          expect: 403,
          errorCode: 'AUTH_PERMISSION_DENIED',
        },
        {
          method: 'PATCH',
          url: (r) => `${admin(r)}/notes`,
          payload: () => ({ adminNotes: 'x' }),
          as: 'owner',
          expect: 403,
          errorCode: 'AUTH_FORBIDDEN',
        },
      ],
    );
  });
});
