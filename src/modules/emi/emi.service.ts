// EMI: the store's instalment setting and banks (admin writes, cached public reads) and the
// inquiries shoppers send, which staff follow up by hand (EMI is arranged with the bank, not paid here).
import type { UserPrincipal } from '../../platform/auth/principal';
import { cachedInGeneration } from '../../platform/cache/cache';
import type { Db } from '../../platform/db/database';
import { type AfterCommit, inTransaction } from '../../platform/db/transaction';
import { httpErrors } from '../../platform/http/errors';
import { type PageMeta, pageMeta, pageWindow } from '../../platform/http/pagination';
import type { ModuleContext } from '../../platform/module';
import { recordActivity } from '../activity';
import { findProductsForSale } from '../catalog';
import { createNotifier } from '../notifications';
import { emiErrors } from './emi.errors';
import { emiInquiryPermissions } from './emi.permissions';
import * as repo from './emi.repository';
import type {
  AdminBankListQuery,
  AdminEmiInquiryView,
  AdminInquiryListQuery,
  CreateBankBody,
  EmiBankView,
  EmiConfigBody,
  EmiConfigView,
  EmiInquiryBody,
  EmiInquiryView,
  InquiryStatusBody,
  PublicEmiBankView,
  UpdateBankBody,
} from './emi.schemas';

export type EmiDeps = Pick<
  ModuleContext,
  'db' | 'clock' | 'cache' | 'config' | 'storage' | 'push' | 'realtime'
>;

// ── Public cache ────────────────────────────────────────────────────────────────────────────
// The public config and bank list are read through the cache under a generation token; every
// admin change of the config or a bank drops the token after commit, so the next public read
// loads afresh (a read that loaded just before the commit files its copy under the old token).

const GENERATION_KEY = 'emi:generation:public';

async function publicRead<T>(deps: EmiDeps, entry: string, load: () => Promise<T>): Promise<T> {
  const ttl = deps.config.EMI_PUBLIC_CACHE_TTL_SECONDS;
  if (ttl <= 0) return load();
  return cachedInGeneration(deps.cache, GENERATION_KEY, `emi:public:${entry}`, ttl * 1000, load);
}

function clearPublicCache(deps: EmiDeps, afterCommit: AfterCommit): void {
  afterCommit(() => deps.cache.delete(GENERATION_KEY));
}

// ── Views ───────────────────────────────────────────────────────────────────────────────────

const toConfig = (row: repo.ConfigRow): EmiConfigView => ({
  isEnabled: row.isEnabled,
  periods: row.periods,
  updatedAt: row.updatedAt.toISOString(),
});

export const toBank = (row: repo.BankRow): EmiBankView => ({
  id: row.id,
  name: row.name,
  logoUrl: row.logoUrl,
  displayOrder: row.displayOrder,
  isActive: row.isActive,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const toPublicBank = (row: repo.BankRow): PublicEmiBankView => ({
  id: row.id,
  name: row.name,
  logoUrl: row.logoUrl,
  displayOrder: row.displayOrder,
});

function toInquiry(row: repo.InquiryRow, banks: repo.BankRow[]): EmiInquiryView {
  return {
    id: row.id,
    productId: row.productId,
    productTitle: row.productTitle,
    productSp: row.productSp,
    customerName: row.customerName,
    customerEmail: row.customerEmail,
    customerMobile: row.customerMobile,
    bankIds: banks.map((b) => b.id),
    hasCreditCard: row.hasCreditCard,
    downPaymentAmount: row.downPaymentAmount,
    message: row.message,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
  };
}

function toAdminInquiry(row: repo.InquiryRow, banks: repo.BankRow[]): AdminEmiInquiryView {
  return {
    ...toInquiry(row, banks),
    banks: banks.map((b) => ({ ...toPublicBank(b), isActive: b.isActive })),
    statusNote: row.statusNote,
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function adminInquiryOf(db: Db, row: repo.InquiryRow): Promise<AdminEmiInquiryView> {
  const banks = (await repo.banksOfInquiries(db, [row.id])).get(row.id) ?? [];
  return toAdminInquiry(row, banks);
}

// ── Config ──────────────────────────────────────────────────────────────────────────────────

export async function getConfigForAdmin(deps: EmiDeps): Promise<EmiConfigView> {
  const row = await repo.findConfig(deps.db);
  if (!row) throw emiErrors.configNotFound();
  return toConfig(row);
}

export async function updateConfig(
  deps: EmiDeps,
  admin: UserPrincipal,
  body: EmiConfigBody,
): Promise<EmiConfigView> {
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const at = deps.clock.now();
    const row = await repo.saveConfig(tx, { ...body, at });
    await recordActivity(tx, {
      adminId: admin.userId,
      action: 'update',
      entityType: 'emi_config',
      entityId: 1,
      summary: `EMI ${body.isEnabled ? 'enabled' : 'disabled'}, periods ${body.periods.join(', ') || 'none'}`,
      at,
    });
    clearPublicCache(deps, afterCommit);
    return toConfig(row);
  });
}

/** The public setting: never configured reads as disabled (a shopper's app needs no 404 here). */
export function getPublicConfig(deps: EmiDeps): Promise<EmiConfigView> {
  return publicRead(deps, 'config', async () => {
    const row = await repo.findConfig(deps.db);
    return row ? toConfig(row) : { isEnabled: false, periods: [], updatedAt: null };
  });
}

// ── Banks ───────────────────────────────────────────────────────────────────────────────────

export function listPublicBanks(deps: EmiDeps): Promise<PublicEmiBankView[]> {
  return publicRead(deps, 'banks', async () => (await repo.activeBanks(deps.db)).map(toPublicBank));
}

export async function listBanksForAdmin(
  deps: EmiDeps,
  query: AdminBankListQuery,
): Promise<{ banks: EmiBankView[]; meta: PageMeta }> {
  const { rows, count } = await repo.listBanks(
    deps.db,
    { isActive: query.isActive },
    { by: query.sort, order: query.order },
    pageWindow(query),
  );
  return { banks: rows.map(toBank), meta: pageMeta(query, count) };
}

export async function getBank(deps: EmiDeps, id: number): Promise<EmiBankView> {
  const row = await repo.findBank(deps.db, id);
  if (!row) throw emiErrors.bankNotFound();
  return toBank(row);
}

/** One admin write of a bank: its transaction, the activity entry and the public cache clear. */
function bankWrite(
  deps: EmiDeps,
  admin: UserPrincipal,
  action: string,
  write: (tx: Db, at: Date) => Promise<repo.BankRow | undefined>,
  summary: (row: repo.BankRow) => string,
): Promise<EmiBankView> {
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const at = deps.clock.now();
    const row = await write(tx, at);
    if (!row) throw emiErrors.bankNotFound();
    await recordActivity(tx, {
      adminId: admin.userId,
      action,
      entityType: 'emi_bank',
      entityId: row.id,
      summary: summary(row),
      at,
    });
    clearPublicCache(deps, afterCommit);
    return toBank(row);
  });
}

export function createBank(deps: EmiDeps, admin: UserPrincipal, body: CreateBankBody) {
  return bankWrite(
    deps,
    admin,
    'create',
    (tx, at) =>
      repo.insertBank(tx, {
        name: body.name,
        logoUrl: body.logoUrl ?? null,
        displayOrder: body.displayOrder,
        createdAt: at,
        updatedAt: at,
      }),
    (row) => `EMI bank ${row.name} created`,
  );
}

export function updateBank(deps: EmiDeps, admin: UserPrincipal, id: number, body: UpdateBankBody) {
  return bankWrite(
    deps,
    admin,
    'update',
    (tx, at) => repo.updateBank(tx, id, { ...body, updatedAt: at }),
    (row) => `EMI bank ${row.name} updated`,
  );
}

/** docs/decisions.md, "EMI bank delete": the bank is deactivated; inquiries keep their links. */
export function deleteBank(deps: EmiDeps, admin: UserPrincipal, id: number) {
  return bankWrite(
    deps,
    admin,
    'deactivate',
    (tx, at) => repo.updateBank(tx, id, { isActive: false, updatedAt: at }),
    (row) => `EMI bank ${row.name} deactivated`,
  );
}

// ── Inquiries ───────────────────────────────────────────────────────────────────────────────

/**
 * Stores an instalment inquiry for a product with the product's title and `sp` as they are
 * now. Checked in this order: EMI enabled (422 EMI_DISABLED), the product exists and is for
 * sale (404 EMI_PRODUCT_NOT_FOUND), every bank exists and is active (404 EMI_BANK_NOT_FOUND),
 * the down payment below the product's effective price (400 VALIDATION_ERROR). Used by the
 * public route and by the POS module's `POST /api/admin/pos/emi-inquiry`.
 */
export async function submitEmiInquiry(deps: EmiDeps, body: EmiInquiryBody): Promise<EmiInquiryView> {
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const config = await repo.findConfig(tx);
    if (!config?.isEnabled) throw emiErrors.disabled();
    const product = (await findProductsForSale(deps, tx, [body.productId])).get(body.productId);
    if (!product?.onSale) throw emiErrors.productNotFound();
    const banks = await repo.lockActiveBanks(tx, body.bankIds);
    if (banks.length !== body.bankIds.length) {
      const found = new Set(banks.map((b) => b.id));
      throw emiErrors.bankNotFound(body.bankIds.filter((id) => !found.has(id)));
    }
    if (body.downPaymentAmount >= product.effectivePrice) {
      throw httpErrors.validation([
        {
          path: 'downPaymentAmount',
          message: `must be below the product price (${product.effectivePrice})`,
        },
      ]);
    }
    const at = deps.clock.now();
    const row = await repo.insertInquiry(
      tx,
      {
        productId: product.id,
        productTitle: product.title,
        productSp: product.sp,
        customerName: body.customerName,
        customerEmail: body.customerEmail,
        customerMobile: body.customerMobile,
        hasCreditCard: body.hasCreditCard,
        downPaymentAmount: body.downPaymentAmount,
        message: body.message || null,
        status: 'new',
        createdAt: at,
        updatedAt: at,
      },
      body.bankIds,
    );
    const linked = (await repo.banksOfInquiries(tx, [row.id])).get(row.id) ?? [];
    // An inquiry is a sale waiting for a call back: the staff who follow them up hear of it now.
    await createNotifier(deps).notifyAdmins(tx, afterCommit, {
      permission: emiInquiryPermissions.UPDATE,
      type: 'emi.inquiry_received',
      title: 'New EMI inquiry',
      body: `${body.customerName} asks about instalments for ${product.title} (${linked.map((b) => b.name).join(', ')}).`,
      data: { inquiryId: row.id, productId: product.id },
    });
    return toInquiry(row, linked);
  });
}

export async function listInquiriesForAdmin(
  deps: EmiDeps,
  query: AdminInquiryListQuery,
): Promise<{ inquiries: AdminEmiInquiryView[]; meta: PageMeta }> {
  const { rows, count } = await repo.listInquiries(
    deps.db,
    { status: query.status, productId: query.productId, bankId: query.bankId, search: query.search },
    query.order,
    pageWindow(query),
  );
  const banks = await repo.banksOfInquiries(
    deps.db,
    rows.map((r) => r.id),
  );
  return {
    inquiries: rows.map((r) => toAdminInquiry(r, banks.get(r.id) ?? [])),
    meta: pageMeta(query, count),
  };
}

export async function getInquiryForAdmin(deps: EmiDeps, id: number): Promise<AdminEmiInquiryView> {
  const row = await repo.findInquiry(deps.db, id);
  if (!row) throw emiErrors.inquiryNotFound();
  return adminInquiryOf(deps.db, row);
}

/**
 * docs/decisions.md "EMI inquiry status": any of the five statuses may be set from any status;
 * `note` replaces the last one.
 */
export async function setInquiryStatus(
  deps: EmiDeps,
  admin: UserPrincipal,
  id: number,
  body: InquiryStatusBody,
): Promise<AdminEmiInquiryView> {
  return inTransaction(deps.db, async (tx) => {
    const at = deps.clock.now();
    const before = await repo.findInquiry(tx, id);
    if (!before) throw emiErrors.inquiryNotFound();
    const row = await repo.setInquiryStatus(tx, id, { status: body.status, statusNote: body.note, at });
    await recordActivity(tx, {
      adminId: admin.userId,
      action: 'update_status',
      entityType: 'emi_inquiry',
      entityId: id,
      summary: `EMI inquiry #${id}: status ${before.status} → ${body.status}`,
      at,
    });
    return adminInquiryOf(tx, row!);
  });
}
