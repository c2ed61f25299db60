// The database keeps the rules a buggy write could break: a device names exactly one brand,
// a history row records only a move of the status matrix, a ticket number has its format and
// is unique.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  repairRequestDevices,
  repairRequestStatusHistory,
  repairRequests,
} from '../../../src/modules/repairs/repairs.table';
import { isCheckViolation, isUniqueViolation } from '../../../src/platform/db/errors';
import { newUuid } from '../../../src/platform/ids';
import { createTestApp, type TestApp } from '../../helpers/app';
import { signedInCustomer } from '../../helpers/factories';

describe('repair tables', () => {
  let t: TestApp;
  let requestId: number;
  let customerId: string;
  beforeAll(async () => {
    t = await createTestApp();
    customerId = (await signedInCustomer(t)).userId;
    const [row] = await t.platform.database.db
      .insert(repairRequests)
      .values({
        publicId: newUuid(),
        ticketNumber: 'TR-ABCDEFGH',
        customerId,
        collectionMethod: 'pickup',
        sourceType: 'direct_booking',
        sharedDescription: '',
      })
      .returning();
    requestId = row!.id;
  });
  afterAll(() => t.close());

  const refused = async (work: Promise<unknown>, check: (e: unknown) => boolean) => {
    const error = await work.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeDefined();
    expect(check(error)).toBe(true);
  };
  const db = () => t.platform.database.db;

  it('a device with both brands, or neither, is refused', async () => {
    const base = { repairRequestId: requestId, laptopModel: 'm', problemDescription: 'p' };
    await refused(db().insert(repairRequestDevices).values(base), (e) =>
      isCheckViolation(e, 'repair_request_devices_one_brand'),
    );
    await refused(
      db()
        .insert(repairRequestDevices)
        .values({ ...base, brandId: null, customBrandName: null }),
      (e) => isCheckViolation(e, 'repair_request_devices_one_brand'),
    );
  });

  it('a history row outside the matrix is refused; one inside is stored', async () => {
    const row = { repairRequestId: requestId, actorType: 'admin' as const };
    await refused(
      db()
        .insert(repairRequestStatusHistory)
        .values({ ...row, fromStatus: 'request_received', toStatus: 'returned' }),
      (e) => isCheckViolation(e, 'repair_request_status_history_pair_allowed'),
    );
    await db()
      .insert(repairRequestStatusHistory)
      .values({ ...row, fromStatus: 'picked_up', toStatus: 'under_repair' });
  });

  it('ticket numbers: format checked, duplicates refused', async () => {
    const values = {
      customerId,
      collectionMethod: 'pickup' as const,
      sourceType: 'direct_booking' as const,
      sharedDescription: '',
    };
    await refused(
      db()
        .insert(repairRequests)
        .values({ ...values, publicId: newUuid(), ticketNumber: 'TR-abc' }),
      (e) => isCheckViolation(e, 'repair_requests_ticket_number_format'),
    );
    await refused(
      db()
        .insert(repairRequests)
        .values({ ...values, publicId: newUuid(), ticketNumber: 'TR-ABCDEFGH' }),
      (e) => isUniqueViolation(e, 'repair_requests_ticket_number_unique'),
    );
  });
});
