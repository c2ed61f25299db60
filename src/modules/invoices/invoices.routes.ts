// Tax documents over HTTP: the back office's lists, details, PDFs, resyncs and registers, and
// the customer's own invoice. Rules live in the services.
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { access } from '../../platform/auth/access';
import type { Cache } from '../../platform/cache/cache';
import { currentUser } from '../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../platform/http/envelope';
import type { AppError } from '../../platform/http/errors';
import { httpErrors } from '../../platform/http/errors';
import { intId, intIdParams } from '../../platform/http/params';
import type { ApiApp } from '../../platform/module';
import { resyncDocument } from './cbms.sync';
import { invoiceErrors } from './invoices.errors';
import { invoicePermissions } from './invoices.permissions';
import { registerCsv } from './invoices.registers';
import {
  csvResponse,
  documentListQuery,
  pdfQuery,
  pdfResponse,
  registerQuery,
  taxDocumentView,
} from './invoices.schemas';
import {
  customerInvoicePdf,
  documentView,
  getDocument,
  type InvoiceDeps,
  listDocuments,
  renderDocument,
} from './invoices.service';
import type { TaxDocumentKind } from './invoices.table';

export interface InvoiceRouteDeps extends InvoiceDeps {
  enqueueSync(documentId: number, resync: boolean): Promise<void>;
  /** The security counters: the limit on a customer's invoice downloads. */
  counters: Cache;
}

const SURFACES: Array<{
  kind: TaxDocumentKind;
  path: string;
  noun: string;
  file: string;
  /** The 404 of an unknown id, for the OpenAPI document. */
  notFound: AppError[];
}> = [
  {
    kind: 'invoice',
    path: '/api/admin/invoices',
    noun: 'Tax invoice',
    file: 'invoice',
    notFound: [invoiceErrors.invoiceNotFound()],
  },
  {
    kind: 'credit_note',
    path: '/api/admin/credit-notes',
    noun: 'Credit note',
    file: 'credit-note',
    notFound: [invoiceErrors.creditNoteNotFound()],
  },
];

/** A download naming buyers and their PANs: no shared cache may keep it. */
const sendDownload = (reply: FastifyReply, type: string, fileName: string, body: Buffer | Readable) =>
  reply
    .type(type)
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'private, no-store')
    .send(body);

export function invoiceRoutes(app: ApiApp, deps: InvoiceRouteDeps) {
  for (const s of SURFACES) {
    app.get(
      s.path,
      {
        config: { access: access.admin(invoicePermissions.READ) },
        schema: {
          tags: ['invoices'],
          summary: `${s.noun}s, newest first by default (filters: fiscalYear, from, to, syncStatus, orderId, search)`,
          querystring: documentListQuery,
          response: { 200: listEnvelopeSchema(taxDocumentView) },
        },
      },
      async (request) => {
        const { items, meta } = await listDocuments(deps, s.kind, request.query);
        return okWithMeta(items, meta, `${s.noun}s`);
      },
    );
    app.get(
      `${s.path}/:id`,
      {
        config: { access: access.admin(invoicePermissions.READ), errors: s.notFound },
        schema: {
          tags: ['invoices'],
          summary: `One ${s.noun.toLowerCase()} with its figures in paisa`,
          params: intIdParams,
          response: { 200: envelopeSchema(taxDocumentView) },
        },
      },
      async (request) => ok(await getDocument(deps, s.kind, request.params.id), s.noun),
    );
    app.get(
      `${s.path}/:id/pdf`,
      {
        config: { access: access.admin(invoicePermissions.PRINT), errors: s.notFound },
        schema: {
          tags: ['invoices'],
          summary: `The ${s.noun.toLowerCase()} as a PDF (A4 or 80 mm receipt); the first is the original, later ones are numbered copies`,
          params: intIdParams,
          querystring: pdfQuery,
          response: { 200: pdfResponse },
        },
      },
      async (request, reply) => {
        const { pdf, fileName } = await renderDocument(deps, {
          kind: s.kind,
          id: request.params.id,
          by: { via: 'admin', adminId: currentUser(request).userId },
          format: request.query.format,
        });
        return sendDownload(reply, 'application/pdf', fileName, pdf);
      },
    );
    app.post(
      `${s.path}/:id/resync`,
      {
        config: {
          access: access.admin(invoicePermissions.SYNC),
          errors: [...s.notFound, invoiceErrors.syncNotConfigured(), invoiceErrors.alreadySynced()],
        },
        schema: {
          tags: ['invoices'],
          summary: `Sends the ${s.noun.toLowerCase()} to CBMS again (409 when already synced or CBMS is off)`,
          params: intIdParams,
          response: { 200: envelopeSchema(taxDocumentView) },
        },
      },
      async (request) => {
        const doc = await resyncDocument(
          deps,
          { kind: s.kind, id: request.params.id, adminId: currentUser(request).userId },
          (documentId) => deps.enqueueSync(documentId, true),
        );
        return ok(documentView(doc), 'Sync queued');
      },
    );
  }

  for (const r of [
    { kind: 'invoice' as const, path: 'sales-register', noun: 'sales register' },
    { kind: 'credit_note' as const, path: 'sales-return-register', noun: 'sales return register' },
  ]) {
    app.get(
      `/api/admin/tax-reports/${r.path}`,
      {
        config: { access: access.admin(invoicePermissions.READ) },
        schema: {
          tags: ['invoices'],
          summary: `The ${r.noun} (IRD Schedule 5) of a fiscal year or one BS month of it, as CSV`,
          querystring: registerQuery,
          response: { 200: csvResponse },
        },
      },
      async (request, reply) => {
        const { fileName, stream } = registerCsv(
          { ...deps, log: request.log },
          {
            kind: r.kind,
            fiscalYear: request.query.fiscalYear,
            month: request.query.month,
            adminId: currentUser(request).userId,
          },
        );
        return sendDownload(reply, 'text/csv; charset=utf-8', fileName, stream);
      },
    );
  }

  const customer = access.customer();
  for (const prefix of ['/api/orders', '/api/mobile/orders']) {
    app.get(
      `${prefix}/:orderId/invoice`,
      {
        config: {
          access: customer,
          errors: [
            invoiceErrors.orderNotFound(),
            invoiceErrors.orderAccessDenied(),
            invoiceErrors.invoiceNotFound(),
            httpErrors.rateLimited(60),
          ],
        },
        schema: {
          tags: ['invoices'],
          summary:
            'The tax invoice of one of my orders as a PDF (404 INVOICE_NOT_FOUND before it is issued): the first download is the original unless the store printed it, later ones electronic copies marked Copy of Original; at most 20 an hour per order (429)',
          params: z.object({ orderId: intId }),
          querystring: pdfQuery,
          response: { 200: pdfResponse },
        },
      },
      async (request, reply) => {
        const { pdf, fileName } = await customerInvoicePdf(deps, {
          orderId: request.params.orderId,
          customerId: currentUser(request).userId,
          format: request.query.format,
        });
        return sendDownload(reply, 'application/pdf', fileName, pdf);
      },
    );
  }
}
