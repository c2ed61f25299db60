// HTTP helpers of the cart and coupon tests.
import { expect } from 'vitest';
import { getStockLevels } from '../../../src/modules/catalog';
import { createTestApp, type TestApp, type TestAppOptions } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { caller, insertProduct } from '../catalog/calls';

export const PREFIXES = ['/api/cart', '/api/mobile/cart'] as const;

export interface CartBody {
  id: string;
  items: Array<{
    id: string;
    productId: number;
    productTitle: string;
    productSlug: string;
    productKind: string;
    thumbnailUrl: string | null;
    quantity: number;
    unitMrp: number;
    unitSp: number;
    effectivePrice: number;
    discountPerUnit: number;
    lineDiscount: number;
    lineTotal: number;
    carePackage: null | {
      carePackageId: number;
      pricingTierId: number;
      name: string;
      tierLabel: string;
      unitPrice: number;
    };
  }>;
  totals: {
    totalMrp: number;
    totalSp: number;
    appliedDiscount: number;
    shippingFee: number;
    carePackageTotal: number;
    finalPayable: number;
    itemCount: number;
  };
  appliedCoupon: { code: string; discount: number } | null;
  promoNotice: { message: string } | null;
  shippingLocation: null | Record<string, unknown>;
  updatedAt: string;
}

export async function cartTestApp(opts: TestAppOptions = {}) {
  const t = await createTestApp(opts);
  const http = caller(t);
  const admin = await signedInAdmin(t, { superadmin: true });
  const db = t.platform.database.db;

  /** A published physical product with `onHand` units (or another kind, without stock). */
  async function product(
    values: {
      onHand?: number;
      mrp?: number;
      sp?: number;
      kind?: 'physical' | 'digital' | 'care_package';
    } & Record<string, unknown> = {},
  ): Promise<number> {
    const { onHand = 10, mrp = 1000, sp = 0, kind = 'physical', ...rest } = values;
    const id = await insertProduct(t, { productKind: kind, mrp, sp, ...rest });
    if (kind === 'physical' && onHand > 0) {
      const res = await http.call('PATCH', `/api/admin/products/${id}/stock`, admin.headers, {
        onHand,
        reason: 'test stock',
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    return id;
  }

  /** Makes a district shippable at `fee`; returns its id. */
  async function district(name: string, fee: number, isActive = true): Promise<number> {
    const list = await http.call(
      'GET',
      `/api/admin/shipping-districts?search=${name}&pagination=false`,
      admin.headers,
    );
    const found = (list.json().data as Array<{ id: number; name: string }>).find((d) => d.name === name)!;
    const res = await http.call('PATCH', `/api/admin/shipping-districts/${found.id}`, admin.headers, {
      shippingFee: fee,
      isActive,
    });
    expect(res.statusCode, res.body).toBe(200);
    return found.id;
  }

  async function coupon(body: Record<string, unknown>): Promise<{ id: number; code: string }> {
    const res = await http.call('POST', '/api/admin/coupons', admin.headers, {
      discountType: 'percent',
      value: 10,
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  }

  async function carePackage(body: Record<string, unknown> = {}) {
    const res = await http.call('POST', '/api/admin/care-packages', admin.headers, {
      name: 'Cover',
      tiers: [
        { label: '1 year', durationMonths: 12, price: 500 },
        { label: '2 years', durationMonths: 24, price: 900 },
      ],
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; tiers: Array<{ id: number; label: string; price: number }> };
  }

  const stockOf = async (productId: number) => (await getStockLevels(db, [productId])).get(productId)!;

  /** A cart call that must succeed; answers the cart. */
  async function cartCall(
    who: SignedIn,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    payload?: unknown,
    prefix: string = PREFIXES[0],
  ): Promise<CartBody> {
    const res = await http.call(method, `${prefix}${path}`, who.headers, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as CartBody;
  }

  return {
    t,
    db,
    http,
    admin,
    product,
    district,
    coupon,
    carePackage,
    stockOf,
    cartCall,
    customer: () => signedInCustomer(t),
  };
}

export type CartTestApp = Awaited<ReturnType<typeof cartTestApp>>;

export function expectError(
  res: { statusCode: number; json(): { errorCode: string }; body: string },
  status: number,
  code: string,
) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().errorCode).toBe(code);
}

export type { TestApp };
