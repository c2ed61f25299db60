// EMI routes: the back office's config, banks and inquiries (EmiConfig_*, EmiBanks_*,
// EmiInquiries_*), and the public config, banks and inquiry submission of the app.
import { z } from 'zod';
import { access } from '../../platform/auth/access';
import { currentUser } from '../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../platform/http/envelope';
import { intIdParams } from '../../platform/http/params';
import type { ApiApp } from '../../platform/module';
import { emiErrors } from './emi.errors';
import { emiBankPermissions, emiConfigPermissions, emiInquiryPermissions } from './emi.permissions';
import * as s from './emi.schemas';
import * as emi from './emi.service';

/**
 * Anyone may ask without signing in, and every inquiry lands in the staff's feed: as many per
 * IP as a support inquiry (10 an hour), enough for a family behind one router.
 */
export const EMI_INQUIRY_RATE_LIMIT = { max: 10, timeWindow: 3_600_000 };

export function adminEmiRoutes(app: ApiApp, deps: emi.EmiDeps) {
  const tags = ['emi (admin)'];
  const bank = { 200: envelopeSchema(s.emiBankView) };
  const inquiry = { 200: envelopeSchema(s.adminEmiInquiryView) };

  app.get(
    '/api/admin/emi/config',
    {
      config: { access: access.admin(emiConfigPermissions.READ), errors: [emiErrors.configNotFound()] },
      schema: {
        tags,
        summary: 'The EMI setting (404 EMI_CONFIG_NOT_FOUND until first saved)',
        response: { 200: envelopeSchema(s.emiConfigView) },
      },
    },
    async () => ok(await emi.getConfigForAdmin(deps), 'EMI config'),
  );

  app.put(
    '/api/admin/emi/config',
    {
      config: { access: access.admin(emiConfigPermissions.UPDATE) },
      schema: {
        tags,
        summary: 'Save the EMI setting; clears the public cache',
        body: s.emiConfigBody,
        response: { 200: envelopeSchema(s.emiConfigView) },
      },
    },
    async (request) =>
      ok(await emi.updateConfig(deps, currentUser(request), request.body), 'EMI config saved'),
  );

  app.post(
    '/api/admin/emi/banks',
    {
      config: { access: access.admin(emiBankPermissions.CREATE) },
      schema: {
        tags,
        summary: 'Add a bank',
        body: s.createBankBody,
        response: { 201: envelopeSchema(s.emiBankView) },
      },
    },
    async (request, reply) => {
      const created = await emi.createBank(deps, currentUser(request), request.body);
      reply.status(201);
      return ok(created, 'EMI bank created');
    },
  );

  app.get(
    '/api/admin/emi/banks',
    {
      config: { access: access.admin(emiBankPermissions.READ) },
      schema: {
        tags,
        summary: 'Every bank, active or not (default order: displayOrder ascending)',
        querystring: s.adminBankListQuery,
        response: { 200: listEnvelopeSchema(s.emiBankView) },
      },
    },
    async (request) => {
      const { banks, meta } = await emi.listBanksForAdmin(deps, request.query);
      return okWithMeta(banks, meta, 'EMI banks');
    },
  );

  app.get(
    '/api/admin/emi/banks/:id',
    {
      config: { access: access.admin(emiBankPermissions.READ), errors: [emiErrors.bankNotFound()] },
      schema: { tags, summary: 'One bank', params: intIdParams, response: bank },
    },
    async (request) => ok(await emi.getBank(deps, request.params.id), 'EMI bank'),
  );

  app.patch(
    '/api/admin/emi/banks/:id',
    {
      config: { access: access.admin(emiBankPermissions.UPDATE), errors: [emiErrors.bankNotFound()] },
      schema: {
        tags,
        summary: 'Change a bank (isActive reactivates or deactivates it)',
        params: intIdParams,
        body: s.updateBankBody,
        response: bank,
      },
    },
    async (request) =>
      ok(
        await emi.updateBank(deps, currentUser(request), request.params.id, request.body),
        'EMI bank updated',
      ),
  );

  app.delete(
    '/api/admin/emi/banks/:id',
    {
      config: { access: access.admin(emiBankPermissions.DELETE), errors: [emiErrors.bankNotFound()] },
      schema: {
        tags,
        summary: 'Deactivate a bank (inquiries keep their links)',
        params: intIdParams,
        response: bank,
      },
    },
    async (request) =>
      ok(await emi.deleteBank(deps, currentUser(request), request.params.id), 'EMI bank deactivated'),
  );

  app.get(
    '/api/admin/emi/inquiries',
    {
      config: { access: access.admin(emiInquiryPermissions.READ) },
      schema: {
        tags,
        summary: 'Inquiries, newest first; search matches name, email or mobile',
        querystring: s.adminInquiryListQuery,
        response: { 200: listEnvelopeSchema(s.adminEmiInquiryView) },
      },
    },
    async (request) => {
      const { inquiries, meta } = await emi.listInquiriesForAdmin(deps, request.query);
      return okWithMeta(inquiries, meta, 'EMI inquiries');
    },
  );

  app.get(
    '/api/admin/emi/inquiries/:id',
    {
      config: { access: access.admin(emiInquiryPermissions.READ), errors: [emiErrors.inquiryNotFound()] },
      schema: { tags, summary: 'One inquiry', params: intIdParams, response: inquiry },
    },
    async (request) => ok(await emi.getInquiryForAdmin(deps, request.params.id), 'EMI inquiry'),
  );

  app.patch(
    '/api/admin/emi/inquiries/:id/status',
    {
      config: { access: access.admin(emiInquiryPermissions.UPDATE), errors: [emiErrors.inquiryNotFound()] },
      schema: {
        tags,
        summary: 'Set the status (any of the five, from any), with an optional note',
        params: intIdParams,
        body: s.inquiryStatusBody,
        response: inquiry,
      },
    },
    async (request) =>
      ok(
        await emi.setInquiryStatus(deps, currentUser(request), request.params.id, request.body),
        'EMI inquiry status updated',
      ),
  );
}

export function publicEmiRoutes(app: ApiApp, deps: emi.EmiDeps) {
  const tags = ['emi'];
  const open = access.public();

  app.get(
    '/api/mobile/emi/config',
    {
      config: { access: open },
      schema: {
        tags,
        summary: 'Whether EMI is offered and its periods (cached)',
        response: { 200: envelopeSchema(s.emiConfigView) },
      },
    },
    async () => ok(await emi.getPublicConfig(deps), 'EMI config'),
  );

  app.get(
    '/api/mobile/emi/banks',
    {
      config: { access: open },
      schema: {
        tags,
        summary: 'The active banks in display order (cached)',
        response: { 200: envelopeSchema(z.array(s.publicEmiBankView)) },
      },
    },
    async () => ok(await emi.listPublicBanks(deps), 'EMI banks'),
  );

  app.post(
    '/api/mobile/emi/inquiries',
    {
      config: {
        access: open,
        rateLimit: EMI_INQUIRY_RATE_LIMIT,
        errors: [emiErrors.disabled(), emiErrors.bankNotFound(), emiErrors.productNotFound()],
      },
      schema: {
        tags,
        summary: 'Ask to buy a product on instalments',
        body: s.emiInquiryBody,
        response: { 201: envelopeSchema(s.emiInquiryView) },
      },
    },
    async (request, reply) => {
      const inquiry = await emi.submitEmiInquiry(deps, request.body);
      reply.status(201);
      return ok(inquiry, 'EMI inquiry submitted');
    },
  );
}
