// Who may reach a support ticket or inquiry, row by row (test/helpers/ownership.ts). The codes
// are the interface's and those of docs/decisions.md "Tickets": another customer's ticket 404
// SUPPORT_REQUEST_NOT_FOUND; another customer's inquiry 403 SUPPORT_INQUIRY_ACCESS_DENIED; a
// guest token on another inquiry (or none) 403 SUPPORT_INQUIRY_TOKEN_INVALID; an `si_` token
// on a customer-only route 401; an admin JWT on a customer route 403 AUTH_FORBIDDEN; an admin
// without the permission 403 AUTH_PERMISSION_DENIED.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import {
  type Credentials,
  type OwnershipContext,
  type OwnershipRow,
  ownershipTests,
} from '../../helpers/ownership';
import { caller, createGuestInquiry } from './support-helpers';

interface Owned {
  id: number;
}

describe('support ownership', () => {
  let t: TestApp;
  let superadmin: SignedIn;
  const contexts: Record<string, OwnershipContext<Owned>> = {};

  beforeAll(async () => {
    t = await createTestApp();
    const call = caller(t);
    const owner = await signedInCustomer(t);
    superadmin = await signedInAdmin(t, { superadmin: true });
    const otherGuest = await createGuestInquiry(t, { subject: `other guest ${randomUUID()}` });
    const actors: Record<string, Credentials> = {
      owner,
      otherCustomer: await signedInCustomer(t),
      otherGuest,
      anonymous: { headers: {} },
      // Holds every support permission: admins reach any ticket or inquiry on admin routes.
      otherAdmin: await signedInAdmin(t, {
        permissions: [
          'SupportRequests_READ',
          'SupportRequests_UPDATE',
          'SupportInquiries_READ',
          'SupportInquiries_UPDATE',
        ],
      }),
      // Reads, but may not write.
      readOnlyAdmin: await signedInAdmin(t, {
        permissions: ['SupportRequests_READ', 'SupportInquiries_READ'],
      }),
      limitedAdmin: await signedInAdmin(t, { permissions: ['Feedback_READ'] }),
    };

    // The owner's ticket.
    const ticketSubject = `ticket ${randomUUID()}`;
    const ticketMessage = `ticket message ${randomUUID()}`;
    const ticket = await call('POST', '/api/mobile/support-requests', {
      headers: owner.headers,
      payload: { category: 'account', subject: ticketSubject, message: ticketMessage },
    });
    expect(ticket.statusCode).toBe(201);
    const ticketId = ticket.json().data.id as number;
    contexts.ticket = {
      t,
      record: { id: ticketId },
      actors,
      secrets: [ticketSubject, ticketMessage],
      snapshot: async () =>
        (await call('GET', `/api/admin/support-requests/${ticketId}`, { headers: superadmin.headers })).json()
          .data,
    };

    // The owner's inquiry (a signed-in customer's chat record).
    const inquirySubject = `inquiry ${randomUUID()}`;
    const inquiryMessage = `inquiry message ${randomUUID()}`;
    const inquiry = await call('POST', '/api/support-inquiries', {
      headers: owner.headers,
      payload: { category: 'payment', subject: inquirySubject, message: inquiryMessage },
    });
    expect(inquiry.statusCode).toBe(201);
    const inquiryId = inquiry.json().data.id as number;
    const inquirySnapshot = (id: number) => async () =>
      (await call('GET', `/api/admin/support-inquiries/${id}`, { headers: superadmin.headers })).json().data;
    contexts.inquiry = {
      t,
      record: { id: inquiryId },
      actors,
      secrets: [inquirySubject, inquiryMessage],
      snapshot: inquirySnapshot(inquiryId),
    };

    // A guest's inquiry: reached only with its own si_ token.
    const guestSubject = `guest inquiry ${randomUUID()}`;
    const guest = await createGuestInquiry(t, {
      subject: guestSubject,
      guestEmail: `guest-${randomUUID()}@example.com`,
    });
    contexts.guestInquiry = {
      t,
      record: { id: guest.id },
      actors: { ...actors, guestOwner: guest },
      secrets: [guestSubject],
      snapshot: inquirySnapshot(guest.id),
    };
  });
  afterAll(() => t.close());

  const refused = (
    method: OwnershipRow<Owned>['method'],
    url: (r: Owned) => string,
    as: string,
    expectStatus: number,
    errorCode: string,
    payload?: (r: Owned) => unknown,
  ): OwnershipRow<Owned> => ({ method, url, as, expect: expectStatus, errorCode, payload });

  describe("a customer's ticket", () => {
    const mine = (r: Owned) => `/api/mobile/support-requests/${r.id}`;
    const mineMessages = (r: Owned) => `/api/mobile/support-requests/${r.id}/messages`;
    const admin = (r: Owned) => `/api/admin/support-requests/${r.id}`;
    const reply = () => ({ body: `not yours ${randomUUID()}` });
    ownershipTests(
      () => contexts.ticket!,
      [
        { method: 'GET', url: mine, as: 'owner', expect: 200 },
        { method: 'GET', url: () => '/api/mobile/support-requests', as: 'owner', expect: 200, shows: 'some' },
        refused('GET', mine, 'otherCustomer', 404, 'SUPPORT_REQUEST_NOT_FOUND'),
        refused('POST', mineMessages, 'otherCustomer', 404, 'SUPPORT_REQUEST_NOT_FOUND', reply),
        {
          method: 'GET',
          url: () => '/api/mobile/support-requests',
          as: 'otherCustomer',
          expect: 200,
          shows: false,
        },
        refused('GET', mine, 'otherGuest', 401, 'AUTH_UNAUTHORIZED'),
        refused('GET', mine, 'otherAdmin', 403, 'AUTH_FORBIDDEN'),
        refused('POST', mineMessages, 'otherAdmin', 403, 'AUTH_FORBIDDEN', reply),
        refused('GET', mine, 'anonymous', 401, 'AUTH_UNAUTHORIZED'),
        { method: 'GET', url: admin, as: 'otherAdmin', expect: 200, note: 'admins read any ticket' },
        refused('GET', admin, 'owner', 403, 'AUTH_FORBIDDEN'),
        refused('GET', admin, 'limitedAdmin', 403, 'AUTH_PERMISSION_DENIED'),
        refused('POST', (r) => `${admin(r)}/messages`, 'readOnlyAdmin', 403, 'AUTH_PERMISSION_DENIED', reply),
        refused(
          'PATCH',
          (r) => `${admin(r)}/status`,
          'readOnlyAdmin',
          403,
          'AUTH_PERMISSION_DENIED',
          () => ({
            status: 'closed',
          }),
        ),
        refused(
          'PATCH',
          (r) => `${admin(r)}/assign`,
          'readOnlyAdmin',
          403,
          'AUTH_PERMISSION_DENIED',
          () => ({
            assignedAdminId: null,
          }),
        ),
      ],
    );
  });

  const visitorRoutes: Array<
    [OwnershipRow<Owned>['method'], (r: Owned) => string, ((r: Owned) => unknown)?]
  > = [
    ['GET', (r) => `/api/support-inquiries/${r.id}`],
    ['GET', (r) => `/api/support-inquiries/${r.id}/messages`],
    ['POST', (r) => `/api/support-inquiries/${r.id}/messages`, () => ({ body: `not yours ${randomUUID()}` })],
    ['PATCH', (r) => `/api/support-inquiries/${r.id}/identify`, () => ({ guestName: 'Intruder' })],
    ['POST', (r) => `/api/support-inquiries/${r.id}/verify-email/request`],
    ['POST', (r) => `/api/support-inquiries/${r.id}/verify-email/confirm`, () => ({ otp: '123456' })],
  ];
  const adminInquiry = (r: Owned) => `/api/admin/support-inquiries/${r.id}`;

  describe("a customer's inquiry", () => {
    ownershipTests(
      () => contexts.inquiry!,
      [
        { method: 'GET', url: (r) => `/api/support-inquiries/${r.id}`, as: 'owner', expect: 200 },
        { method: 'GET', url: () => '/api/support-inquiries', as: 'owner', expect: 200, shows: 'some' },
        ...visitorRoutes.flatMap(([method, url, payload]) => [
          refused(method, url, 'otherCustomer', 403, 'SUPPORT_INQUIRY_ACCESS_DENIED', payload),
          refused(method, url, 'otherGuest', 403, 'SUPPORT_INQUIRY_TOKEN_INVALID', payload),
          refused(method, url, 'anonymous', 403, 'SUPPORT_INQUIRY_TOKEN_INVALID', payload),
          refused(method, url, 'otherAdmin', 403, 'AUTH_FORBIDDEN', payload),
        ]),
        {
          method: 'GET',
          url: () => '/api/support-inquiries',
          as: 'otherCustomer',
          expect: 200,
          shows: false,
        },
        { method: 'GET', url: adminInquiry, as: 'otherAdmin', expect: 200, note: 'admins read any inquiry' },
        refused('GET', adminInquiry, 'limitedAdmin', 403, 'AUTH_PERMISSION_DENIED'),
        refused(
          'POST',
          (r) => `${adminInquiry(r)}/messages`,
          'readOnlyAdmin',
          403,
          'AUTH_PERMISSION_DENIED',
          () => ({ body: 'no' }),
        ),
        refused(
          'PATCH',
          (r) => `${adminInquiry(r)}/status`,
          'readOnlyAdmin',
          403,
          'AUTH_PERMISSION_DENIED',
          () => ({
            status: 'closed',
          }),
        ),
      ],
    );
  });

  describe("a guest's inquiry", () => {
    ownershipTests(
      () => contexts.guestInquiry!,
      [
        { method: 'GET', url: (r) => `/api/support-inquiries/${r.id}`, as: 'guestOwner', expect: 200 },
        ...visitorRoutes.flatMap(([method, url, payload]) => [
          refused(method, url, 'otherGuest', 403, 'SUPPORT_INQUIRY_TOKEN_INVALID', payload),
          refused(method, url, 'otherCustomer', 403, 'SUPPORT_INQUIRY_ACCESS_DENIED', payload),
        ]),
        refused('GET', adminInquiry, 'guestOwner', 401, 'AUTH_UNAUTHORIZED'),
      ],
    );
  });
});
