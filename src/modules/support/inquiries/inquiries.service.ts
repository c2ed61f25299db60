// Support inquiries: chat records a guest or a customer opens from the storefront or the app.
// A guest gets an `si_` token once (only its digest is kept); contact details can be added
// later and the email verified with a code, which silently links the inquiry to the customer
// owning that email. Admins reply, assign, set any status, and turn an inquiry into a ticket.
import { credentialKeys, type Principal, type UserPrincipal } from '../../../platform/auth/principal';
import type { Db } from '../../../platform/db/database';
import { type AfterCommit, inTransaction } from '../../../platform/db/transaction';
import { publishEvent } from '../../../platform/events/events';
import { type PageMeta, pageMeta, pageWindow } from '../../../platform/http/pagination';
import { crockfordCode, numericCode } from '../../../platform/ids';
import { randomToken, sha256Hex } from '../../../platform/security/tokens';
import { recordActivity } from '../../activity';
import { findCustomerIdByEmail, findUserCard } from '../../identity';
import { inquiryRoom } from '../realtime/support-events';
import * as requestRepo from '../requests/requests.repository';
import { openRequest } from '../requests/requests.service';
import { type Desk, deskAssign, deskDetail, deskReply, deskSetStatus } from '../support.desk';
import { inquiryPermissions } from '../support.permissions';
import { customerNameIn, customerNamesOf, isoOrNull, type SupportDeps } from '../support.service';
import { assertInquiryReadable, INQUIRY_TOKEN_PREFIX, inquiryTokenCredential } from './inquiries.access';
import { inquiryErrors } from './inquiries.errors';
import { inquiryVerificationEmail } from './inquiries.mail';
import * as repo from './inquiries.repository';
import type {
  AdminInquiry,
  AdminInquiryDetail,
  AdminListQuery,
  AdminMessage,
  CreateInquiryBody,
  CustomerListQuery,
  IdentifyBody,
  LinkBody,
  RevokeTokenView,
  VisitorInquiry,
  VisitorInquiryDetail,
  VisitorMessage,
} from './inquiries.schemas';

const ENTITY = 'support_inquiry';
export const TRACKING_CODE_PREFIX = 'SI-';
export const EMAIL_CODE_TTL_MS = 10 * 60_000;
export const MAX_WRONG_EMAIL_CODES = 5;
const GREETING =
  'Thank you for contacting us. A member of our support team will reply here as soon as possible.';
const TRACKING_CODE_ATTEMPTS = 5;

export const newTrackingCode = () => `${TRACKING_CODE_PREFIX}${crockfordCode(10)}`;

/** Inquiry category → ticket category, when a ticket is created from an inquiry. */
export function ticketCategoryOf(category: repo.InquiryRow['category']): requestRepo.RequestRow['category'] {
  switch (category) {
    case 'account':
    case 'payment':
    case 'technical':
      return category;
    default:
      return 'other';
  }
}

// ----- views -----

function common(row: repo.InquiryRow) {
  return {
    id: row.id,
    trackingCode: row.trackingCode,
    customerId: row.customerId,
    guestName: row.guestName,
    guestEmail: row.guestEmail,
    guestPhone: row.guestPhone,
    emailVerifiedAt: isoOrNull(row.emailVerifiedAt),
    category: row.category,
    subject: row.subject,
    status: row.status,
    supportRequestId: row.supportRequestId,
    lastVisitorMessageAt: isoOrNull(row.lastVisitorMessageAt),
    lastAdminMessageAt: isoOrNull(row.lastAdminMessageAt),
    closedAt: isoOrNull(row.closedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export const toVisitorInquiry = (row: repo.InquiryRow): VisitorInquiry => ({
  ...common(row),
  isAssigned: row.assignedAdminId !== null,
});
export const toAdminInquiry = (row: repo.InquiryRow, names: Map<string, string>): AdminInquiry => ({
  ...common(row),
  assignedAdminId: row.assignedAdminId,
  customerName: customerNameIn(names, row.customerId),
});
export const toVisitorMessage = (m: repo.InquiryMessageRow): VisitorMessage => ({
  id: m.id,
  supportInquiryId: m.supportInquiryId,
  authorType: m.authorType,
  authorCustomerId: m.authorCustomerId,
  authorName: m.authorName,
  authorImage: m.authorImage,
  body: m.body,
  createdAt: m.createdAt.toISOString(),
});
export const toAdminMessage = (m: repo.InquiryMessageRow): AdminMessage => ({
  ...toVisitorMessage(m),
  authorAdminId: m.authorAdminId,
  bodyCode: m.bodyCode,
});

async function visitorDetail(db: Db, row: repo.InquiryRow): Promise<VisitorInquiryDetail> {
  const messages = await repo.listMessages(db, row.id);
  return { ...toVisitorInquiry(row), messages: messages.map(toVisitorMessage) };
}

async function adminDetail(db: Db, row: repo.InquiryRow): Promise<AdminInquiryDetail> {
  // One after the other: `db` may be a transaction, which runs one query at a time.
  const messages = await repo.listMessages(db, row.id);
  const names = await customerNamesOf(db, [row]);
  return { ...toAdminInquiry(row, names), messages: messages.map(toAdminMessage) };
}

/** Stores an inquiry message and publishes it to the inquiry's room, in the write's transaction. */
async function writeMessage(
  deps: Pick<SupportDeps, 'events'>,
  tx: Db,
  afterCommit: AfterCommit,
  values: repo.NewInquiryMessage,
): Promise<repo.InquiryMessageRow> {
  const row = await repo.insertMessage(tx, values);
  if (row.authorType !== 'system') {
    await deps.events.publishMessage(tx, afterCommit, {
      room: inquiryRoom(row.supportInquiryId),
      eventType: 'support.inquiry_message.created',
      forAdmin: toAdminMessage(row),
      forVisitor: toVisitorMessage(row),
    });
  }
  return row;
}

/** Who a visitor message is from: the signed-in customer, or the guest holding the token. */
async function visitorAuthor(tx: Db, principal: Principal, inquiry: repo.InquiryRow) {
  if (principal.actor === 'customer') {
    const card = await findUserCard(tx, principal.userId);
    return {
      authorType: 'customer' as const,
      authorCustomerId: principal.userId,
      authorName: card?.name ?? 'Customer',
      authorImage: card?.image ?? null,
    };
  }
  return { authorType: 'guest' as const, authorName: inquiry.guestName ?? 'Guest', authorImage: null };
}

async function readableInquiry(
  deps: SupportDeps,
  principal: Principal,
  id: number,
): Promise<repo.InquiryRow> {
  await assertInquiryReadable(deps.db, principal, id);
  const row = await repo.findInquiry(deps.db, id);
  if (!row) throw inquiryErrors.notFound();
  return row;
}

// ----- customer and guest -----

export async function createInquiry(
  deps: SupportDeps,
  customer: UserPrincipal | null,
  body: CreateInquiryBody,
): Promise<VisitorInquiryDetail> {
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const at = deps.clock.now();
    let inquiry: repo.InquiryRow | undefined;
    for (let attempt = 0; !inquiry && attempt < TRACKING_CODE_ATTEMPTS; attempt++) {
      inquiry = await repo.insertInquiry(tx, {
        trackingCode: newTrackingCode(),
        customerId: customer?.userId ?? null,
        guestName: body.guestName ?? null,
        guestEmail: body.guestEmail ?? null,
        guestPhone: body.guestPhone ?? null,
        category: body.category,
        subject: body.subject,
        status: 'open',
        lastVisitorMessageAt: body.message ? at : null,
        createdAt: at,
        updatedAt: at,
      });
    }
    if (!inquiry) throw new Error('No free tracking code after several attempts');

    await writeMessage(deps, tx, afterCommit, {
      supportInquiryId: inquiry.id,
      authorType: 'system',
      authorName: 'Support',
      body: GREETING,
      bodyCode: 'greeting',
      createdAt: at,
    });
    if (body.message) {
      const author = customer
        ? await visitorAuthor(tx, customer, inquiry)
        : { authorType: 'guest' as const, authorName: inquiry.guestName ?? 'Guest', authorImage: null };
      await writeMessage(deps, tx, afterCommit, {
        supportInquiryId: inquiry.id,
        ...author,
        body: body.message,
        createdAt: at,
      });
    }

    let inquiryAccessToken: string | undefined;
    if (!customer) {
      inquiryAccessToken = randomToken(32, INQUIRY_TOKEN_PREFIX);
      await repo.insertAccessToken(tx, {
        supportInquiryId: inquiry.id,
        tokenDigest: sha256Hex(inquiryAccessToken),
        expiresAt: new Date(at.getTime() + deps.config.SUPPORT_INQUIRY_TOKEN_TTL_DAYS * 86_400_000),
        createdAt: at,
      });
    }
    // Staff hear of a new conversation at once (their inbox and feed), not at their next look.
    await deps.notifier.notifyAdmins(tx, afterCommit, {
      permission: inquiryPermissions.READ,
      type: 'support.inquiry.created',
      title: 'New support inquiry',
      body: `${customer ? 'A customer' : (inquiry.guestName ?? 'A guest')}: ${inquiry.subject}`,
      data: { inquiryId: inquiry.id },
    });
    await publishEvent(tx, 'inquiry.created', { inquiryId: inquiry.id });
    const detail = await visitorDetail(tx, inquiry);
    return inquiryAccessToken ? { ...detail, inquiryAccessToken } : detail;
  });
}

export async function listOwnInquiries(
  deps: SupportDeps,
  customer: UserPrincipal,
  query: CustomerListQuery,
): Promise<{ inquiries: VisitorInquiry[]; meta: PageMeta }> {
  const { rows, count } = await repo.listInquiries(
    deps.db,
    { customerId: customer.userId, status: query.status, category: query.category },
    { by: query.sort, order: query.order },
    pageWindow(query),
  );
  return { inquiries: rows.map(toVisitorInquiry), meta: pageMeta(query, count) };
}

export async function getInquiry(deps: SupportDeps, principal: Principal, id: number) {
  return visitorDetail(deps.db, await readableInquiry(deps, principal, id));
}

export async function listInquiryMessages(deps: SupportDeps, principal: Principal, id: number) {
  await assertInquiryReadable(deps.db, principal, id);
  return (await repo.listMessages(deps.db, id)).map(toVisitorMessage);
}

export async function addVisitorMessage(
  deps: SupportDeps,
  principal: Principal,
  id: number,
  body: string,
): Promise<VisitorInquiryDetail> {
  await assertInquiryReadable(deps.db, principal, id);
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const at = deps.clock.now();
    const inquiry = await repo.noteVisitorMessage(tx, id, at);
    if (!inquiry) throw inquiryErrors.closed();
    await writeMessage(deps, tx, afterCommit, {
      supportInquiryId: id,
      ...(await visitorAuthor(tx, principal, inquiry)),
      body,
      createdAt: at,
    });
    return visitorDetail(tx, inquiry);
  });
}

/**
 * Stores the contact details given; missing or empty ones keep their stored values. A new
 * email address is unverified. Never links to a customer, and answers the same whether or
 * not a customer has that email.
 */
export async function identify(
  deps: SupportDeps,
  principal: Principal,
  id: number,
  body: IdentifyBody,
): Promise<VisitorInquiryDetail> {
  const before = await readableInquiry(deps, principal, id);
  const emailChanges = body.guestEmail !== undefined && body.guestEmail !== before.guestEmail;
  const row = await repo.updateInquiry(deps.db, id, {
    ...(body.guestName !== undefined ? { guestName: body.guestName } : {}),
    ...(body.guestPhone !== undefined ? { guestPhone: body.guestPhone } : {}),
    ...(emailChanges ? { guestEmail: body.guestEmail, emailVerifiedAt: null } : {}),
    updatedAt: deps.clock.now(),
  });
  return visitorDetail(deps.db, row!);
}

const emailCodeDigest = (inquiryId: number, email: string, code: string) =>
  sha256Hex(`support_inquiry:${inquiryId}:${email}:${code}`);

/** Emails a 6-digit code to the inquiry's stored address; the answer is the same for every address. */
export async function requestEmailVerification(
  deps: SupportDeps,
  principal: Principal,
  id: number,
): Promise<{ sent: true }> {
  const inquiry = await readableInquiry(deps, principal, id);
  const email = inquiry.guestEmail;
  if (!email)
    throw inquiryErrors.emailVerificationInvalid('Add an email address (identify) before verifying it');
  const code = numericCode(6);
  await inTransaction(deps.db, async (tx, afterCommit) => {
    const at = deps.clock.now();
    await repo.replaceEmailCode(tx, {
      supportInquiryId: id,
      email,
      codeDigest: emailCodeDigest(id, email, code),
      expiresAt: new Date(at.getTime() + EMAIL_CODE_TTL_MS),
      createdAt: at,
    });
    afterCommit(() =>
      deps.mail.send(
        inquiryVerificationEmail({
          to: email,
          name: inquiry.guestName,
          trackingCode: inquiry.trackingCode,
          code,
          minutes: EMAIL_CODE_TTL_MS / 60_000,
        }),
      ),
    );
  });
  return { sent: true };
}

/**
 * Confirms the emailed code: the address is verified, and when a customer account holds it
 * and the inquiry has no customer yet, the inquiry quietly becomes that customer's.
 */
export async function confirmEmailVerification(
  deps: SupportDeps,
  principal: Principal,
  id: number,
  otp: string,
): Promise<VisitorInquiryDetail> {
  const inquiry = await readableInquiry(deps, principal, id);
  const email = inquiry.guestEmail;
  if (!email) throw inquiryErrors.emailVerificationInvalid();
  // Outside any transaction: a wrong attempt must stay counted when this call fails.
  const consumed = await repo.consumeEmailCode(deps.db, {
    inquiryId: id,
    email,
    codeDigest: emailCodeDigest(id, email, otp),
    now: deps.clock.now(),
    maxWrong: MAX_WRONG_EMAIL_CODES,
  });
  if (!consumed) throw inquiryErrors.emailVerificationInvalid();
  return inTransaction(deps.db, async (tx) => {
    const at = deps.clock.now();
    const current = await repo.lockInquiry(tx, id);
    // The address changed after the code was sent: the code verified the old one.
    if (!current || current.guestEmail !== email) throw inquiryErrors.emailVerificationInvalid();
    const customerId = current.customerId ?? (await findCustomerIdByEmail(tx, email)) ?? null;
    const row = await repo.updateInquiry(tx, id, { emailVerifiedAt: at, customerId, updatedAt: at });
    return visitorDetail(tx, row!);
  });
}

// ----- admin -----

export async function listInquiriesForAdmin(
  deps: SupportDeps,
  query: AdminListQuery,
): Promise<{ inquiries: AdminInquiry[]; meta: PageMeta }> {
  const { rows, count } = await repo.listInquiries(
    deps.db,
    {
      status: query.status,
      category: query.category,
      customerId: query.customerId,
      assignedAdminId: query.assignedAdminId,
      supportRequestId: query.supportRequestId,
      search: query.search,
    },
    { by: query.sort, order: query.order },
    pageWindow(query),
  );
  const names = await customerNamesOf(deps.db, rows);
  return { inquiries: rows.map((row) => toAdminInquiry(row, names)), meta: pageMeta(query, count) };
}

/** The admin desk's view of inquiries (`support.desk.ts`: what tickets share). */
const inquiryDesk: Desk<repo.InquiryRow, AdminInquiryDetail, { status: repo.InquiryStatus }> = {
  entity: ENTITY,
  nameOf: (row) => `support inquiry ${row.trackingCode}`,
  notFound: inquiryErrors.notFound,
  closed: inquiryErrors.closed,
  find: repo.findInquiry,
  lock: repo.lockInquiry,
  assign: repo.updateInquiry,
  setStatus: (tx, id, change, at) => repo.setInquiryStatus(tx, id, change.status, at),
  noteAdminReply: repo.noteAdminMessage,
  detail: adminDetail,
  async writeReply(deps, tx, afterCommit, { admin, body, at, row }) {
    const card = await findUserCard(tx, admin.userId);
    await writeMessage(deps, tx, afterCommit, {
      supportInquiryId: row.id,
      authorType: 'admin',
      authorAdminId: admin.userId,
      authorName: card?.name ?? 'Support',
      authorImage: card?.image ?? null,
      body,
      createdAt: at,
    });
  },
};

export const getInquiryForAdmin = (deps: Pick<SupportDeps, 'db'>, id: number): Promise<AdminInquiryDetail> =>
  deskDetail(inquiryDesk, deps, id);

export const adminReply = (deps: SupportDeps, admin: UserPrincipal, id: number, body: string) =>
  deskReply(inquiryDesk, deps, { admin, id, body });

export const assignInquiry = (
  deps: SupportDeps,
  admin: UserPrincipal,
  id: number,
  assignedAdminId: string | null,
) => deskAssign(inquiryDesk, deps, { admin, id, assignedAdminId });

export const setInquiryStatus = (
  deps: SupportDeps,
  admin: UserPrincipal,
  id: number,
  status: repo.InquiryStatus,
) => deskSetStatus(inquiryDesk, deps, { admin, id, change: { status } });

/**
 * Revokes the inquiry's guest tokens (a leaked link, an abusive visitor): every request with
 * them is refused from now on, and the sockets opened with them are closed at once on every
 * process. Revoking again answers 0 and records nothing.
 */
export async function revokeGuestTokens(
  deps: SupportDeps,
  admin: UserPrincipal,
  id: number,
): Promise<RevokeTokenView> {
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const at = deps.clock.now();
    const inquiry = await repo.lockInquiry(tx, id);
    if (!inquiry) throw inquiryErrors.notFound();
    const revoked = await repo.revokeLiveAccessTokens(tx, id, at);
    if (revoked.length) {
      await recordActivity(tx, {
        adminId: admin.userId,
        action: 'revoke_token',
        entityType: ENTITY,
        entityId: id,
        summary: `Revoked the guest access token of support inquiry ${inquiry.trackingCode}`,
        at,
      });
      afterCommit(() =>
        deps.realtime.disconnectCredentials(
          revoked.map((tokenId) => credentialKeys.guest(inquiryTokenCredential(tokenId))),
        ),
      );
    }
    return { supportInquiryId: id, revokedTokens: revoked.length };
  });
}

/**
 * Links the inquiry to a ticket of its customer: `{ subject }` opens a new ticket holding a
 * copy of every non-system message (guest messages count as the customer's), `{ supportRequestId }`
 * links an existing one. The inquiry becomes `linked`.
 */
export async function linkSupportRequest(
  deps: SupportDeps,
  admin: UserPrincipal,
  id: number,
  body: LinkBody,
): Promise<{ inquiry: AdminInquiryDetail; created: boolean }> {
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const at = deps.clock.now();
    const inquiry = await repo.lockInquiry(tx, id);
    if (!inquiry) throw inquiryErrors.notFound();
    const customerId = inquiry.customerId;
    if (!customerId) throw inquiryErrors.supportRequestRequired();

    let requestId: number;
    const created = 'subject' in body;
    if ('subject' in body) {
      const messages = (await repo.listMessages(tx, id)).filter((m) => m.authorType !== 'system');
      const request = await openRequest(deps, tx, afterCommit, {
        customerId,
        category: ticketCategoryOf(inquiry.category),
        subject: body.subject,
        at,
        messages: messages.map((m) =>
          m.authorType === 'admin'
            ? {
                authorType: 'admin' as const,
                authorAdminId: m.authorAdminId,
                authorName: m.authorName,
                body: m.body,
                createdAt: m.createdAt,
              }
            : {
                authorType: 'customer' as const,
                authorCustomerId: customerId,
                authorName: m.authorName,
                body: m.body,
                createdAt: m.createdAt,
              },
        ),
      });
      requestId = request.id;
    } else {
      const request = await requestRepo.findRequest(tx, body.supportRequestId);
      if (!request) throw inquiryErrors.linkInvalid('The support request does not exist');
      if (request.customerId !== customerId) {
        throw inquiryErrors.linkInvalid('The support request belongs to another customer');
      }
      requestId = request.id;
    }

    const row = await repo.updateInquiry(tx, id, {
      supportRequestId: requestId,
      status: 'linked',
      closedAt: null,
      updatedAt: at,
    });
    await recordActivity(tx, {
      adminId: admin.userId,
      action: created ? 'create_support_request' : 'link_support_request',
      entityType: ENTITY,
      entityId: id,
      summary: created
        ? `Support inquiry ${inquiry.trackingCode}: created support request #${requestId}`
        : `Support inquiry ${inquiry.trackingCode}: linked to support request #${requestId}`,
      at,
    });
    return { inquiry: await adminDetail(tx, row!), created };
  });
}

/**
 * The inactivity sweep: closes `open`, `active`, `waiting` and `resolved` inquiries with no
 * message and no update for `days`. One UPDATE, so overlapping runs cannot close twice.
 */
export async function closeInactiveInquiries(deps: Pick<SupportDeps, 'db' | 'clock'>, days: number) {
  const now = deps.clock.now();
  return repo.closeIdleInquiries(deps.db, new Date(now.getTime() - days * 86_400_000), now);
}
