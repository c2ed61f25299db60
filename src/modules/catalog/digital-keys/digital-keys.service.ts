// Licence keys of digital products. Admins add them in bulk and see them masked; a key's value
// is decrypted only for the order item it was sold with (fulfilment calls the functions below).
import type { UserPrincipal } from '../../../platform/auth/principal';
import type { Db } from '../../../platform/db/database';
import { inTransaction } from '../../../platform/db/transaction';
import { type PageMeta, pageMeta, pageWindow } from '../../../platform/http/pagination';
import { newUuid } from '../../../platform/ids';
import type { ModuleContext } from '../../../platform/module';
import { recordActivity } from '../../activity';
import { catalogErrors } from '../catalog.errors';
import { findProduct } from '../products/products.repository';
import { digitalKeyErrors } from './digital-keys.errors';
import * as repo from './digital-keys.repository';
import type {
  AddDigitalKeysBody,
  AddedDigitalKeys,
  DigitalKeyListQuery,
  DigitalKeyView,
} from './digital-keys.schemas';
import { keysOf, keyVault, maskKey } from './digital-keys.secrets';

type Deps = Pick<ModuleContext, 'db' | 'clock' | 'config'>;

async function digitalProduct(db: Db, productId: number): Promise<void> {
  const kind = (await findProduct(db, productId))?.productKind;
  if (!kind) throw catalogErrors.productNotFound();
  if (kind !== 'digital') throw digitalKeyErrors.notDigital();
}

const toView = (row: repo.DigitalKeyRow): DigitalKeyView => ({
  id: row.id,
  maskedValue: row.maskedValue,
  status: row.status,
  orderItemId: row.orderItemId,
  createdAt: row.createdAt.toISOString(),
});

export async function addDigitalKeys(
  deps: Deps,
  actor: UserPrincipal,
  productId: number,
  body: AddDigitalKeysBody,
): Promise<AddedDigitalKeys> {
  const values = keysOf(body);
  const vault = keyVault(deps.config);
  const now = deps.clock.now();
  const byDigest = new Map<string, string>();
  for (const value of values) {
    const digest = vault.digest(value);
    if (!byDigest.has(digest)) byDigest.set(digest, value);
  }
  return inTransaction(deps.db, async (tx) => {
    await digitalProduct(tx, productId);
    const added = await repo.insertNewKeys(
      tx,
      [...byDigest].map(([digest, value]) => ({
        id: newUuid(),
        productId,
        valueEncrypted: vault.seal(productId, value),
        valueDigest: digest,
        maskedValue: maskKey(value),
        createdAt: now,
      })),
    );
    const duplicates = values.length - added;
    await recordActivity(tx, {
      adminId: actor.userId,
      action: 'digital_keys_add',
      entityType: 'product',
      entityId: productId,
      summary: `Added ${added} digital key(s) to product ${productId} (${duplicates} duplicate(s) skipped)`,
      at: now,
    });
    return { added, duplicates };
  });
}

export async function listDigitalKeys(
  deps: Pick<Deps, 'db'>,
  productId: number,
  query: DigitalKeyListQuery,
): Promise<{ keys: DigitalKeyView[]; meta: PageMeta }> {
  await digitalProduct(deps.db, productId);
  const { rows, count } = await repo.listKeys(deps.db, productId, query, pageWindow(query));
  return { keys: rows.map(toView), meta: pageMeta(query, count) };
}

export async function revokeDigitalKey(
  deps: Pick<Deps, 'db' | 'clock'>,
  actor: UserPrincipal,
  productId: number,
  keyId: string,
): Promise<DigitalKeyView> {
  const now = deps.clock.now();
  return inTransaction(deps.db, async (tx) => {
    await digitalProduct(tx, productId);
    const key = await repo.findKey(tx, productId, keyId);
    if (!key) throw digitalKeyErrors.notFound(keyId);
    const revoked = await repo.transitionKey(tx, keyId, 'available', { status: 'revoked', revokedAt: now });
    if (!revoked) {
      const current = await repo.findKey(tx, productId, keyId);
      throw digitalKeyErrors.notAvailable(current?.status ?? key.status);
    }
    await recordActivity(tx, {
      adminId: actor.userId,
      action: 'digital_key_revoke',
      entityType: 'product',
      entityId: productId,
      summary: `Revoked digital key ${revoked.maskedValue} (${keyId}) of product ${productId}`,
      at: now,
    });
    return toView(revoked);
  });
}

// ---------- for orders and fulfilment ----------

export type AssignOutcome =
  | { ok: true; keys: Array<{ id: string; assignedAt: string }> }
  /** Not enough available keys: nothing was assigned. */
  | { ok: false; available: number };

/**
 * Assigns available keys to an order item until it holds `quantity` of them (so a retried
 * delivery assigns nothing twice). Concurrent assigners never get the same key: each locks
 * the keys it takes and skips the ones others have locked.
 */
export async function assignDigitalKeys(
  tx: Db,
  p: { productId: number; orderItemId: string; quantity: number; at: Date },
): Promise<AssignOutcome> {
  const need = p.quantity - (await repo.countAssigned(tx, p.productId, p.orderItemId));
  const ids = need > 0 ? await repo.lockAvailableKeys(tx, p.productId, need) : [];
  if (ids.length < need) return { ok: false, available: ids.length };
  await repo.assignKeys(tx, ids, p.orderItemId, p.at);
  const keys = await repo.assignedKeysOf(tx, p.orderItemId);
  return {
    ok: true,
    keys: keys
      .filter((k) => k.productId === p.productId)
      .map((k) => ({ id: k.id, assignedAt: k.assignedAt!.toISOString() })),
  };
}

export interface RevealedKey {
  id: string;
  productId: number;
  value: string;
  maskedValue: string;
  assignedAt: string;
}

/** The full values of the keys sold with an order item, for the delivery mail and the customer. */
export async function revealAssignedKeys(
  deps: { db: Db; config: Deps['config'] },
  orderItemId: string,
): Promise<RevealedKey[]> {
  const vault = keyVault(deps.config);
  return keysSoldWith(deps.db, orderItemId, (r) => vault.open(r.productId, r.valueEncrypted));
}

/**
 * The keys sold with an order item as a member of staff may see them: the full value only when
 * `reveal` (their role holds DigitalKeys_READ), else null and nothing decrypted; the masked
 * form always, so a support call can still tell the keys apart.
 */
export function assignedKeysForStaff(
  deps: { db: Db; config: Deps['config'] },
  orderItemId: string,
  reveal: boolean,
): Promise<Array<Omit<RevealedKey, 'value'> & { value: string | null }>> {
  return reveal ? revealAssignedKeys(deps, orderItemId) : keysSoldWith(deps.db, orderItemId, () => null);
}

/** The keys sold with an order item, each with the value `valueFor` gives it. */
async function keysSoldWith<V>(
  db: Db,
  orderItemId: string,
  valueFor: (row: repo.DigitalKeyRow) => V,
): Promise<Array<Omit<RevealedKey, 'value'> & { value: V }>> {
  const rows = await repo.assignedKeysOf(db, orderItemId);
  return rows.map((r) => ({
    id: r.id,
    productId: r.productId,
    value: valueFor(r),
    maskedValue: r.maskedValue,
    assignedAt: r.assignedAt!.toISOString(),
  }));
}

/** How many licence keys sold with these order items the customer has (docs/decisions.md, "Refunds after digital delivery"). */
export function deliveredKeyCount(db: Db, orderItemIds: Array<string | number>): Promise<number> {
  return repo.countAssignedToItems(db, orderItemIds.map(String));
}

/**
 * Revokes the keys delivered with these order items, in the caller's transaction (a refund
 * approved with `revokeKeys`): they stop being the customer's and are never sold again.
 * Answers their masked values, for the activity record.
 */
export function revokeDeliveredKeys(
  tx: Db,
  p: { orderItemIds: Array<string | number>; at: Date },
): Promise<string[]> {
  return repo.revokeAssignedToItems(tx, p.orderItemIds.map(String), p.at);
}

/** How many unsold keys each digital product has (its stock). */
export function availableDigitalKeyCounts(db: Db, productIds: number[]): Promise<Map<number, number>> {
  return repo.availableCounts(db, productIds);
}
