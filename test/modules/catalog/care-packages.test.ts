// Care packages: admin routes, the public offers of a product, and the subscription functions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activateSubscription,
  cancelSubscription,
  createPendingSubscription,
  expireSubscriptions,
  findCarePackageTier,
  findEligibleCarePackageChoice,
  subscriptionsOfOrderItems,
} from '../../../src/modules/catalog';
import { brands, categories } from '../../../src/modules/catalog/taxonomy/taxonomy.table';
import type { Db } from '../../../src/platform/db/database';
import { inTransaction } from '../../../src/platform/db/transaction';
import type { TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin } from '../../helpers/factories';
import { type caller, catalogTestApp, insertProduct } from './calls';

interface Tier {
  id: number;
  label: string;
  durationMonths: number;
  price: number;
  isActive: boolean;
}
interface Package {
  id: number;
  name: string;
  description: string | null;
  isActive: boolean;
  rules: {
    categoryIds: number[];
    brandIds: number[];
    productIds: number[];
    minPrice: number | null;
    maxPrice: number | null;
  };
  tiers: Tier[];
}

describe('care packages', () => {
  let t: TestApp;
  let db: Db;
  let admin: SignedIn;
  let customer: SignedIn;
  let http: ReturnType<typeof caller>;
  let laptops: number;
  let gamingLaptops: number;
  let phones: number;
  let dell: number;
  beforeAll(async () => {
    ({ t, db, http, admin, customer } = await catalogTestApp());
    const [l] = await db.insert(categories).values({ name: 'Laptops', slug: 'cp-laptops' }).returning();
    const [g] = await db
      .insert(categories)
      .values({ name: 'Gaming laptops', slug: 'cp-gaming-laptops', parentId: l!.id })
      .returning();
    const [p] = await db.insert(categories).values({ name: 'Phones', slug: 'cp-phones' }).returning();
    const [d] = await db.insert(brands).values({ name: 'Dell', slug: 'cp-dell' }).returning();
    laptops = l!.id;
    gamingLaptops = g!.id;
    phones = p!.id;
    dell = d!.id;
  });
  afterAll(() => t.close());

  const create = async (body: Record<string, unknown>, headers = admin.headers) => {
    const res = await http.call('POST', '/api/admin/care-packages', headers, {
      name: 'Laptop care',
      tiers: [
        { label: '1 year', durationMonths: 12, price: 4999 },
        { label: '2 years', durationMonths: 24, price: 8999 },
      ],
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as Package;
  };
  const offers = async (productId: number) => {
    const res = await http.call('GET', `/api/mobile/products/id/${productId}/care-packages`);
    return res;
  };

  describe('POST /api/admin/care-packages', () => {
    it('creates with rules and tiers (201 with tier ids) and records activity', async () => {
      const creator = await signedInAdmin(t, { permissions: ['CarePackages_CREATE'] });
      const pkg = await create(
        {
          name: '  Dell cover ',
          description: 'Accidental damage',
          rules: { categoryIds: [laptops], brandIds: [dell], minPrice: 50_000 },
        },
        creator.headers,
      );
      expect(pkg).toMatchObject({
        name: 'Dell cover',
        description: 'Accidental damage',
        isActive: true,
        rules: { categoryIds: [laptops], brandIds: [dell], productIds: [], minPrice: 50_000, maxPrice: null },
      });
      expect(pkg.tiers.map((x) => [x.label, x.durationMonths, x.price, x.isActive])).toEqual([
        ['1 year', 12, 4999, true],
        ['2 years', 24, 8999, true],
      ]);
      expect(pkg.tiers.every((x) => Number.isInteger(x.id))).toBe(true);
      const trail = await http.activityOf(admin, 'care_package', pkg.id);
      expect(trail[0]).toMatchObject({ adminId: creator.userId, action: 'create' });
    });

    it('defaults to no rules', async () => {
      const pkg = await create({ rules: undefined });
      expect(pkg.rules).toEqual({
        categoryIds: [],
        brandIds: [],
        productIds: [],
        minPrice: null,
        maxPrice: null,
      });
    });

    it('refuses bad bodies and unknown rule ids', async () => {
      for (const body of [
        { name: 'x', tiers: [] },
        { name: '', tiers: [{ label: 'a', durationMonths: 12, price: 1 }] },
        { name: 'x', tiers: [{ label: 'a', durationMonths: 0, price: 1 }] },
        { name: 'x', tiers: [{ label: 'a', durationMonths: 12, price: -1 }] },
        {
          name: 'x',
          rules: { minPrice: 10, maxPrice: 5 },
          tiers: [{ label: 'a', durationMonths: 12, price: 1 }],
        },
        { name: 'x', rules: { categoryIds: ['a'] }, tiers: [{ label: 'a', durationMonths: 12, price: 1 }] },
      ]) {
        const res = await http.call('POST', '/api/admin/care-packages', admin.headers, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
      const unknown = await http.call('POST', '/api/admin/care-packages', admin.headers, {
        name: 'x',
        rules: { brandIds: [dell, 999999] },
        tiers: [{ label: 'a', durationMonths: 12, price: 1 }],
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toMatchObject({ errorCode: 'CARE_PACKAGE_RULE_INVALID' });
      expect(unknown.json().message).toContain('999999');
    });

    it('needs CarePackages_CREATE', async () => {
      await http.expectGuarded('POST', '/api/admin/care-packages', 'CarePackages_CREATE', customer, {
        name: 'x',
        tiers: [{ label: 'a', durationMonths: 12, price: 1 }],
      });
    });
  });

  describe('GET /api/admin/care-packages and /:id', () => {
    it('lists with search, isActive and pagination; shows one', async () => {
      const a = await create({ name: 'Zebra shield' });
      await create({ name: 'Zebra shield plus', isActive: false });
      const reader = await signedInAdmin(t, { permissions: ['CarePackages_READ'] });
      const found = await http.call(
        'GET',
        '/api/admin/care-packages?search=zebra&sort=name&order=asc',
        reader.headers,
      );
      expect(found.statusCode).toBe(200);
      expect(found.json().data.map((p: Package) => p.name)).toEqual(['Zebra shield', 'Zebra shield plus']);
      expect(found.json().meta).toEqual({ count: 2, page: 1, size: 20 });
      const active = await http.call(
        'GET',
        '/api/admin/care-packages?search=zebra&isActive=false',
        reader.headers,
      );
      expect(active.json().data.map((p: Package) => p.name)).toEqual(['Zebra shield plus']);
      const one = await http.call('GET', `/api/admin/care-packages/${a.id}`, reader.headers);
      expect(one.json().data).toEqual(a);
      const missing = await http.call('GET', '/api/admin/care-packages/999999', reader.headers);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().errorCode).toBe('CARE_PACKAGE_NOT_FOUND');
      const bad = await http.call('GET', '/api/admin/care-packages?isActive=1', reader.headers);
      expect(bad.json().errorCode).toBe('VALIDATION_ERROR');
    });

    it('needs CarePackages_READ', async () => {
      await http.expectGuarded('GET', '/api/admin/care-packages', 'CarePackages_READ', customer);
      await http.expectGuarded('GET', '/api/admin/care-packages/1', 'CarePackages_READ', customer);
    });
  });

  describe('PATCH /api/admin/care-packages/:id', () => {
    it('updates fields and rules; tiers by id, new ones added, left-out ones deactivated', async () => {
      const pkg = await create({ rules: { minPrice: 1000, brandIds: [dell] } });
      const [one, two] = pkg.tiers;
      const editor = await signedInAdmin(t, { permissions: ['CarePackages_UPDATE'] });
      const res = await http.call('PATCH', `/api/admin/care-packages/${pkg.id}`, editor.headers, {
        description: 'Now with pickup',
        rules: { maxPrice: 500_000 },
        tiers: [
          { id: two!.id, label: '2 years', durationMonths: 24, price: 7999 },
          { label: '3 years', durationMonths: 36, price: 10999 },
        ],
      });
      expect(res.statusCode, res.body).toBe(200);
      const updated = res.json().data as Package;
      expect(updated.description).toBe('Now with pickup');
      expect(updated.rules).toMatchObject({ brandIds: [dell], minPrice: 1000, maxPrice: 500_000 });
      const byLabel = Object.fromEntries(updated.tiers.map((x) => [x.label, x]));
      expect(byLabel['1 year']).toMatchObject({ id: one!.id, isActive: false });
      expect(byLabel['2 years']).toMatchObject({ id: two!.id, price: 7999, isActive: true });
      expect(byLabel['3 years']).toMatchObject({ durationMonths: 36, isActive: true });
      const trail = await http.activityOf(admin, 'care_package', pkg.id);
      expect(trail[0]).toMatchObject({ adminId: editor.userId, action: 'update' });

      const range = await http.call('PATCH', `/api/admin/care-packages/${pkg.id}`, editor.headers, {
        rules: { minPrice: 600_000 },
      });
      expect(range.statusCode).toBe(400);
      expect(range.json().errorCode).toBe('VALIDATION_ERROR');
    });

    it('refuses a tier of another package, an empty body, unknown ids', async () => {
      const a = await create({});
      const b = await create({});
      const foreign = await http.call('PATCH', `/api/admin/care-packages/${a.id}`, admin.headers, {
        tiers: [{ id: b.tiers[0]!.id, label: 'x', durationMonths: 1, price: 1 }],
      });
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json().errorCode).toBe('CARE_PACKAGE_TIER_INVALID');
      const empty = await http.call('PATCH', `/api/admin/care-packages/${a.id}`, admin.headers, {});
      expect(empty.json().errorCode).toBe('VALIDATION_ERROR');
      const missing = await http.call('PATCH', '/api/admin/care-packages/999999', admin.headers, {
        name: 'x',
      });
      expect(missing.json().errorCode).toBe('CARE_PACKAGE_NOT_FOUND');
      const rule = await http.call('PATCH', `/api/admin/care-packages/${a.id}`, admin.headers, {
        rules: { productIds: [999999] },
      });
      expect(rule.json().errorCode).toBe('CARE_PACKAGE_RULE_INVALID');
    });

    it('needs CarePackages_UPDATE', async () => {
      await http.expectGuarded('PATCH', '/api/admin/care-packages/1', 'CarePackages_UPDATE', customer, {
        name: 'x',
      });
    });
  });

  describe('DELETE /api/admin/care-packages/:id', () => {
    it('deletes an unused package; refuses one in use with 409 CARE_PACKAGE_IN_USE', async () => {
      const unused = await create({});
      const deleter = await signedInAdmin(t, { permissions: ['CarePackages_DELETE'] });
      const res = await http.call('DELETE', `/api/admin/care-packages/${unused.id}`, deleter.headers);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toBeNull();
      expect(
        (await http.call('GET', `/api/admin/care-packages/${unused.id}`, admin.headers)).statusCode,
      ).toBe(404);
      expect((await http.activityOf(admin, 'care_package', unused.id))[0]).toMatchObject({
        action: 'delete',
      });

      const sold = await create({});
      await insertProduct(t, { productKind: 'care_package', carePackageTierId: sold.tiers[0]!.id });
      const inUse = await http.call('DELETE', `/api/admin/care-packages/${sold.id}`, deleter.headers);
      expect(inUse.statusCode).toBe(409);
      expect(inUse.json().errorCode).toBe('CARE_PACKAGE_IN_USE');

      const subscribed = await create({});
      await inTransaction(db, (tx) =>
        createPendingSubscription(tx, {
          customerId: customer.userId,
          tierId: subscribed.tiers[0]!.id,
          at: new Date(),
        }),
      );
      const inUse2 = await http.call('DELETE', `/api/admin/care-packages/${subscribed.id}`, deleter.headers);
      expect(inUse2.json().errorCode).toBe('CARE_PACKAGE_IN_USE');

      const missing = await http.call('DELETE', '/api/admin/care-packages/999999', deleter.headers);
      expect(missing.json().errorCode).toBe('CARE_PACKAGE_NOT_FOUND');
    });

    it('needs CarePackages_DELETE', async () => {
      await http.expectGuarded('DELETE', '/api/admin/care-packages/1', 'CarePackages_DELETE', customer);
    });
  });

  describe('GET /api/mobile/products/id/:productId/care-packages', () => {
    it('lists the active, eligible packages with their active tiers', async () => {
      // Deactivate every earlier package so only this test's ones count.
      const earlier = await http.call('GET', '/api/admin/care-packages?pagination=false', admin.headers);
      for (const p of earlier.json().data as Package[]) {
        await http.call('PATCH', `/api/admin/care-packages/${p.id}`, admin.headers, { isActive: false });
      }
      const everything = await create({ name: 'Any gadget' });
      const laptopCare = await create({
        name: 'Laptop care',
        rules: { categoryIds: [laptops], maxPrice: 200_000 },
      });
      await create({ name: 'Phone care', rules: { categoryIds: [phones] } });
      await create({ name: 'Inactive', isActive: false });
      const noActiveTier = await create({ name: 'No tiers on sale' });
      await http.call('PATCH', `/api/admin/care-packages/${noActiveTier.id}`, admin.headers, {
        tiers: [{ id: noActiveTier.tiers[0]!.id, label: 'x', durationMonths: 12, price: 1, isActive: false }],
      });
      await http.call('PATCH', `/api/admin/care-packages/${laptopCare.id}`, admin.headers, {
        tiers: [{ id: laptopCare.tiers[1]!.id, label: '2 years', durationMonths: 24, price: 8999 }],
      });

      const gaming = await insertProduct(t, {
        productKind: 'physical',
        categoryId: gamingLaptops,
        mrp: 150_000,
      });
      const res = await offers(gaming);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual([
        {
          id: everything.id,
          name: 'Any gadget',
          description: null,
          tiers: everything.tiers.map(({ isActive: _, ...tier }) => tier),
        },
        {
          id: laptopCare.id,
          name: 'Laptop care',
          description: null,
          tiers: [{ id: laptopCare.tiers[1]!.id, label: '2 years', durationMonths: 24, price: 8999 }],
        },
      ]);

      // sp is the effective price: 250,000 mrp sold at 180,000 still fits the laptop range.
      const discounted = await insertProduct(t, {
        productKind: 'physical',
        categoryId: laptops,
        mrp: 250_000,
        sp: 180_000,
      });
      expect((await offers(discounted)).json().data.map((p: Package) => p.name)).toEqual([
        'Any gadget',
        'Laptop care',
      ]);
      const pricey = await insertProduct(t, { productKind: 'physical', categoryId: laptops, mrp: 250_000 });
      expect((await offers(pricey)).json().data.map((p: Package) => p.name)).toEqual(['Any gadget']);
      const digital = await insertProduct(t, { productKind: 'digital' });
      expect((await offers(digital)).json().data).toEqual([]);
    });

    it('404 PRODUCT_NOT_FOUND for unknown, draft, archived or unsellable products; 400 for a bad id', async () => {
      const draft = await insertProduct(t, { productKind: 'physical', status: 'draft' });
      const archived = await insertProduct(t, { productKind: 'physical', status: 'archived' });
      const unsellable = await insertProduct(t, { productKind: 'physical', isSellable: false });
      for (const id of [999999, draft, archived, unsellable]) {
        const res = await offers(id);
        expect(res.statusCode).toBe(404);
        expect(res.json().errorCode).toBe('PRODUCT_NOT_FOUND');
      }
      expect((await offers(0)).json().errorCode).toBe('VALIDATION_ERROR');
    });
  });

  describe('tiers and subscriptions for products and orders', () => {
    it('finds a tier with its package', async () => {
      const pkg = await create({ name: 'Tier lookup' });
      expect(await findCarePackageTier(db, pkg.tiers[1]!.id)).toEqual({
        ...pkg.tiers[1],
        carePackageId: pkg.id,
        carePackage: { id: pkg.id, name: 'Tier lookup', isActive: true },
      });
      expect(await findCarePackageTier(db, 999999)).toBeNull();
    });

    it('checks a package and tier picked for a cart line', async () => {
      const pkg = await create({ name: 'Line cover', rules: { categoryIds: [laptops] } });
      const other = await create({ name: 'Phones only', rules: { categoryIds: [phones] } });
      const laptop = await insertProduct(t, {
        productKind: 'physical',
        categoryId: gamingLaptops,
        mrp: 90_000,
      });
      const [one, two] = pkg.tiers;
      expect(
        await findEligibleCarePackageChoice(db, {
          productId: laptop,
          carePackageId: pkg.id,
          pricingTierId: two!.id,
        }),
      ).toEqual({
        carePackageId: pkg.id,
        pricingTierId: two!.id,
        name: 'Line cover',
        tierLabel: '2 years',
        unitPrice: 8999,
        durationMonths: 24,
      });
      await http.call('PATCH', `/api/admin/care-packages/${pkg.id}`, admin.headers, {
        tiers: [{ id: two!.id, label: '2 years', durationMonths: 24, price: 8999 }],
      });
      const refused = [
        { productId: laptop, carePackageId: pkg.id, pricingTierId: one!.id }, // tier deactivated
        { productId: laptop, carePackageId: pkg.id, pricingTierId: other.tiers[0]!.id }, // another package's tier
        { productId: laptop, carePackageId: other.id, pricingTierId: other.tiers[0]!.id }, // not eligible
        { productId: 999999, carePackageId: pkg.id, pricingTierId: two!.id }, // no such product
      ];
      for (const choice of refused) expect(await findEligibleCarePackageChoice(db, choice)).toBeNull();
    });

    it('creates pending, activates for the tier’s months, cancels, expires', async () => {
      const pkg = await create({});
      const tier = pkg.tiers[1]!; // 24 months
      const laptop = await insertProduct(t, { productKind: 'physical' });
      const bought = new Date('2026-01-31T10:00:00.000Z');
      const pending = await inTransaction(db, (tx) =>
        createPendingSubscription(tx, {
          customerId: customer.userId,
          tierId: tier.id,
          productId: laptop,
          orderItemId: 'item-1',
          at: bought,
        }),
      );
      expect(pending).toMatchObject({
        status: 'pending',
        carePackageId: pkg.id,
        tierId: tier.id,
        durationMonths: 24,
        startsAt: null,
        endsAt: null,
      });

      const start = new Date('2026-02-01T09:00:00.000Z');
      const active = await inTransaction(db, (tx) =>
        activateSubscription(tx, { subscriptionId: pending.id, at: start }),
      );
      expect(active).toMatchObject({
        status: 'active',
        startsAt: '2026-02-01T09:00:00.000Z',
        endsAt: '2028-02-01T09:00:00.000Z',
      });
      await expect(
        inTransaction(db, (tx) => activateSubscription(tx, { subscriptionId: pending.id, at: start })),
      ).rejects.toMatchObject({ errorCode: 'CARE_PACKAGE_SUBSCRIPTION_INVALID_TRANSITION' });

      expect(await expireSubscriptions(db, new Date('2028-02-01T08:59:59.000Z'))).toBe(0);
      expect(await expireSubscriptions(db, new Date('2028-02-01T09:00:00.000Z'))).toBe(1);
      const [expired] = await subscriptionsOfOrderItems(db, ['item-1']);
      expect(expired).toMatchObject({ id: pending.id, status: 'expired' });
      await expect(
        inTransaction(db, (tx) => cancelSubscription(tx, { subscriptionId: pending.id, at: start })),
      ).rejects.toMatchObject({ errorCode: 'CARE_PACKAGE_SUBSCRIPTION_INVALID_TRANSITION' });

      const other = await inTransaction(db, (tx) =>
        createPendingSubscription(tx, {
          customerId: customer.userId,
          tierId: tier.id,
          orderItemId: 'item-2',
          at: bought,
        }),
      );
      const cancelled = await inTransaction(db, (tx) =>
        cancelSubscription(tx, { subscriptionId: other.id, at: start }),
      );
      expect(cancelled).toMatchObject({ status: 'cancelled', cancelledAt: start.toISOString() });

      await expect(
        inTransaction(db, (tx) =>
          createPendingSubscription(tx, { customerId: customer.userId, tierId: 999999, at: start }),
        ),
      ).rejects.toMatchObject({ errorCode: 'CARE_PACKAGE_TIER_NOT_FOUND' });
      await expect(
        inTransaction(db, (tx) =>
          activateSubscription(tx, { subscriptionId: '01900000-0000-7000-8000-000000000000', at: start }),
        ),
      ).rejects.toMatchObject({ errorCode: 'CARE_PACKAGE_SUBSCRIPTION_NOT_FOUND' });
    });
  });
});
