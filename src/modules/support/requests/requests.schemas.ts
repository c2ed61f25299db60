// Request and response shapes of the ticket routes. Customers see `isAssigned` and never
// admin ids; the admin view shows the assigned admin and every message's internal author ids.
import { z } from 'zod';
import { listQuery } from '../../../platform/http/pagination';
import { trimmed } from '../support.schemas';
import {
  SUPPORT_REQUEST_AUTHOR_TYPES,
  SUPPORT_REQUEST_CATEGORIES,
  SUPPORT_REQUEST_STATUSES,
} from './requests.table';

export const createRequestBody = z.object({
  category: z.enum(SUPPORT_REQUEST_CATEGORIES),
  subject: trimmed(255),
  message: trimmed(10_000),
});
export type CreateRequestBody = z.output<typeof createRequestBody>;

const sortKeys = ['updatedAt', 'createdAt'] as const;
export const customerRequestListQuery = listQuery(sortKeys).extend({
  status: z.enum(SUPPORT_REQUEST_STATUSES).optional(),
});
export type CustomerRequestListQuery = z.output<typeof customerRequestListQuery>;

export const adminRequestListQuery = customerRequestListQuery.extend({
  category: z.enum(SUPPORT_REQUEST_CATEGORIES).optional(),
  customerId: z.uuid().optional(),
  assignedAdminId: z.uuid().optional(),
  search: z.string().trim().min(1).max(200).optional(),
});
export type AdminRequestListQuery = z.output<typeof adminRequestListQuery>;

export const requestStatusBody = z.object({
  status: z.enum(SUPPORT_REQUEST_STATUSES),
  resolutionNote: z.string().trim().min(1, 'must not be blank').max(5_000).optional(),
});
export type RequestStatusBody = z.output<typeof requestStatusBody>;

const iso = z.string().describe('ISO-8601 instant');
const isoOrNull = iso.nullable();

const messageCommon = {
  id: z.number().int(),
  supportRequestId: z.number().int(),
  authorType: z.enum(SUPPORT_REQUEST_AUTHOR_TYPES),
  authorName: z.string(),
  body: z.string(),
  createdAt: iso,
};
export const customerRequestMessage = z.object(messageCommon).meta({ id: 'SupportRequestMessage' });
export const adminRequestMessage = z
  .object({ ...messageCommon, authorCustomerId: z.uuid().nullable(), authorAdminId: z.uuid().nullable() })
  .meta({ id: 'SupportRequestMessageAdmin' });
export type CustomerRequestMessage = z.output<typeof customerRequestMessage>;
export type AdminRequestMessage = z.output<typeof adminRequestMessage>;

const requestCommon = {
  id: z.number().int(),
  customerId: z.uuid(),
  category: z.enum(SUPPORT_REQUEST_CATEGORIES),
  subject: z.string(),
  status: z.enum(SUPPORT_REQUEST_STATUSES),
  resolutionNote: z.string().nullable(),
  resolvedAt: isoOrNull,
  closedAt: isoOrNull,
  lastCustomerMessageAt: isoOrNull,
  lastAdminMessageAt: isoOrNull,
  createdAt: iso,
  updatedAt: iso,
};

export const customerRequest = z
  .object({ ...requestCommon, isAssigned: z.boolean() })
  .meta({ id: 'SupportRequest' });
export const customerRequestDetail = customerRequest
  .extend({ messages: z.array(customerRequestMessage) })
  .meta({ id: 'SupportRequestDetail' });
export const adminRequest = z
  .object({
    ...requestCommon,
    assignedAdminId: z.uuid().nullable(),
    customerName: z
      .string()
      .nullable()
      .describe("The customer's current name (null once the account is gone)"),
  })
  .meta({ id: 'SupportRequestAdmin' });
export const adminRequestDetail = adminRequest
  .extend({ messages: z.array(adminRequestMessage) })
  .meta({ id: 'SupportRequestAdminDetail' });

export type CustomerRequest = z.output<typeof customerRequest>;
export type CustomerRequestDetail = z.output<typeof customerRequestDetail>;
export type AdminRequest = z.output<typeof adminRequest>;
export type AdminRequestDetail = z.output<typeof adminRequestDetail>;
