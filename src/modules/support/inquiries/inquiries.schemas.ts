// Request and response shapes of the inquiry routes. Visitors (customers, guests) and admins
// see different views: visitors never see admin ids (only `isAssigned`).
import { z } from 'zod';
import { listQuery } from '../../../platform/http/pagination';
import { intId } from '../../../platform/http/params';
import { trimmed } from '../support.schemas';
import { INQUIRY_AUTHOR_TYPES, INQUIRY_CATEGORIES, INQUIRY_STATUSES } from './inquiries.table';

/** Identify and create: an empty or blank value means "not given" (keeps the stored one). */
const optionalContact = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => (v ? v : undefined));
const optionalEmail = z
  .string()
  .trim()
  .max(320)
  .optional()
  .transform((v) => (v ? v.toLowerCase() : undefined))
  .pipe(z.email('must be an email address').optional());

/** What revoke-token answers: how many live guest tokens this call revoked (0 when none was left). */
export const revokeTokenView = z
  .object({ supportInquiryId: z.number().int(), revokedTokens: z.number().int().min(0) })
  .meta({ id: 'SupportInquiryTokenRevocation' });
export type RevokeTokenView = z.output<typeof revokeTokenView>;

export const contactFields = {
  guestName: optionalContact(255),
  guestEmail: optionalEmail,
  guestPhone: optionalContact(32),
};

export const createInquiryBody = z.object({
  category: z.enum(INQUIRY_CATEGORIES),
  subject: trimmed(255),
  message: z
    .string()
    .trim()
    .max(10_000)
    .optional()
    .transform((v) => (v ? v : undefined)),
  ...contactFields,
});
export type CreateInquiryBody = z.output<typeof createInquiryBody>;

export const identifyBody = z.object(contactFields);
export type IdentifyBody = z.output<typeof identifyBody>;

export const confirmEmailBody = z.object({ otp: z.string().trim().min(4).max(12) });

const sortKeys = ['updatedAt', 'createdAt'] as const;
export const customerListQuery = listQuery(sortKeys).extend({
  status: z.enum(INQUIRY_STATUSES).optional(),
  category: z.enum(INQUIRY_CATEGORIES).optional(),
});
export type CustomerListQuery = z.output<typeof customerListQuery>;

export const adminListQuery = customerListQuery.extend({
  customerId: z.uuid().optional(),
  assignedAdminId: z.uuid().optional(),
  supportRequestId: intId.optional(),
  search: z.string().trim().min(1).max(200).optional(),
});
export type AdminListQuery = z.output<typeof adminListQuery>;

export const statusBody = z.object({ status: z.enum(INQUIRY_STATUSES) });
/** Exactly one of the two forms: create a ticket, or link an existing one. */
export const linkBody = z.union([
  z.object({ subject: trimmed(255) }).strict(),
  z.object({ supportRequestId: intId }).strict(),
]);
export type LinkBody = z.output<typeof linkBody>;

const iso = z.string().describe('ISO-8601 instant');
const isoOrNull = iso.nullable();

const messageCommon = {
  id: z.number().int(),
  supportInquiryId: z.number().int(),
  authorType: z.enum(INQUIRY_AUTHOR_TYPES),
  authorCustomerId: z.uuid().nullable(),
  authorName: z.string(),
  authorImage: z.string().nullable(),
  body: z.string(),
  createdAt: iso,
};
export const visitorMessage = z.object(messageCommon).meta({ id: 'SupportInquiryMessage' });
export const adminMessage = z
  .object({
    ...messageCommon,
    authorAdminId: z.uuid().nullable(),
    bodyCode: z
      .enum(['greeting'])
      .nullable()
      .describe(
        "Set on a message the server wrote (`greeting`, the system greeting), for the back office to word in its own language; `body` holds the visitor's words. Null otherwise.",
      ),
  })
  .meta({ id: 'SupportInquiryMessageAdmin' });
export type VisitorMessage = z.output<typeof visitorMessage>;
export type AdminMessage = z.output<typeof adminMessage>;

const inquiryCommon = {
  id: z.number().int(),
  trackingCode: z.string(),
  customerId: z.uuid().nullable(),
  guestName: z.string().nullable(),
  guestEmail: z.string().nullable(),
  guestPhone: z.string().nullable(),
  emailVerifiedAt: isoOrNull,
  category: z.enum(INQUIRY_CATEGORIES),
  subject: z.string(),
  status: z.enum(INQUIRY_STATUSES),
  supportRequestId: z.number().int().nullable(),
  lastVisitorMessageAt: isoOrNull,
  lastAdminMessageAt: isoOrNull,
  closedAt: isoOrNull,
  createdAt: iso,
  updatedAt: iso,
};

export const visitorInquiry = z
  .object({ ...inquiryCommon, isAssigned: z.boolean() })
  .meta({ id: 'SupportInquiry' });
export const visitorInquiryDetail = visitorInquiry
  .extend({
    messages: z.array(visitorMessage),
    inquiryAccessToken: z
      .string()
      .optional()
      .describe('Only in the creation response to a guest: `Authorization: Bearer si_…` opens this inquiry'),
  })
  .meta({ id: 'SupportInquiryDetail' });
export const adminInquiry = z
  .object({
    ...inquiryCommon,
    assignedAdminId: z.uuid().nullable(),
    // Beyond the interface's fields: staff see who wrote in without opening each conversation.
    customerName: z
      .string()
      .nullable()
      .describe("The account holder's current name when `customerId` is set; null for a guest"),
  })
  .meta({ id: 'SupportInquiryAdmin' });
export const adminInquiryDetail = adminInquiry
  .extend({ messages: z.array(adminMessage) })
  .meta({ id: 'SupportInquiryAdminDetail' });

export type VisitorInquiry = z.output<typeof visitorInquiry>;
export type VisitorInquiryDetail = z.output<typeof visitorInquiryDetail>;
export type AdminInquiry = z.output<typeof adminInquiry>;
export type AdminInquiryDetail = z.output<typeof adminInquiryDetail>;
