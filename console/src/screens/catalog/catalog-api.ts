// The catalog's records as the API answers them (types from the generated client), and the
// look-ups several catalog screens share: the category, brand and tag choices of a form, and the
// upload of image files through the uploads API.
import type { components, PasalClient } from '@pasal/client';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../session/session';

export type Product = components['schemas']['AdminProduct'];
export type ProductKind = Product['productKind'];
export type ProductStatus = Product['status'];
export type Category = components['schemas']['Category'];
export type Brand = components['schemas']['Brand'];
export type Tag = components['schemas']['Tag'];
export type SeoRecord = components['schemas']['SeoRecord'];
export type ShippingDistrict = components['schemas']['ShippingDistrict'];
export type Province = ShippingDistrict['province'];
export type CarePackage = components['schemas']['CarePackage'];
export type StockLedgerEntry = components['schemas']['StockLedgerEntry'];
export type DigitalKey = components['schemas']['DigitalKey'];
export type UploadResult = components['schemas']['UploadResult'];

export const PRODUCT_KINDS: readonly ProductKind[] = ['physical', 'digital', 'care_package'];
export const PRODUCT_STATUSES: readonly ProductStatus[] = ['draft', 'published', 'archived'];
export const PROVINCES: readonly Province[] = [
  'Koshi',
  'Madhesh',
  'Bagmati',
  'Gandaki',
  'Lumbini',
  'Karnali',
  'Sudurpashchim',
];

/** A choice of a Select: the id as text (Mantine's values are strings) and what staff read. */
export interface Choice {
  value: string;
  label: string;
}

/**
 * Every category as a choice, its path shown ("Statues › Buddha"), so sub-categories with the
 * same name can be told apart. Admins who may read categories see inactive ones too; others get
 * the storefront's list (active only), which needs no permission.
 */
export function useCategoryChoices() {
  const { client, can } = useSession();
  const { t } = useTranslation('catalog');
  const admin = can('Categories_READ');
  return useQuery({
    queryKey: ['catalog', 'categories', 'choices', admin],
    queryFn: async () => {
      const rows: Pick<Category, 'id' | 'name' | 'parentId'>[] = admin
        ? await client.get('/api/admin/categories', {
            params: { query: { pagination: 'false', sort: 'name' } },
          })
        : await client.get('/api/categories');
      return categoryChoices(rows);
    },
    staleTime: 60_000,
    meta: { action: t('actions.loadCategories') },
  });
}

export function categoryChoices(rows: Pick<Category, 'id' | 'name' | 'parentId'>[]): Choice[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const path = (row: Pick<Category, 'id' | 'name' | 'parentId'>): string => {
    const names = [row.name];
    const seen = new Set([row.id]);
    let parent = row.parentId === null ? undefined : byId.get(row.parentId);
    // A broken or cyclic parent chain (the API forbids it) must not hang the screen.
    while (parent && !seen.has(parent.id)) {
      names.unshift(parent.name);
      seen.add(parent.id);
      parent = parent.parentId === null ? undefined : byId.get(parent.parentId);
    }
    return names.join(' › ');
  };
  return rows
    .map((row) => ({ value: String(row.id), label: path(row) }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** Brands as choices: the admin list with Brands_READ, else the storefront's (active) list. */
export function useBrandChoices() {
  const { client, can } = useSession();
  const { t } = useTranslation('catalog');
  const admin = can('Brands_READ');
  return useQuery({
    queryKey: ['catalog', 'brands', 'choices', admin],
    queryFn: async (): Promise<Choice[]> => {
      const rows: Pick<Brand, 'id' | 'name'>[] = admin
        ? await client.get('/api/admin/brands', { params: { query: { pagination: 'false', sort: 'name' } } })
        : await client.get('/api/brands');
      return rows.map((row) => ({ value: String(row.id), label: row.name }));
    },
    staleTime: 60_000,
    meta: { action: t('actions.loadBrands') },
  });
}

/** Tags as choices (tags have no storefront list: only with Tags_READ). */
export function useTagChoices() {
  const { client, can } = useSession();
  const { t } = useTranslation('catalog');
  return useQuery({
    queryKey: ['catalog', 'tags', 'choices'],
    queryFn: async () => {
      const rows = await client.get('/api/admin/tags', {
        params: { query: { pagination: 'false', sort: 'name' } },
      });
      return rows.map((row) => ({ value: String(row.id), label: row.name, slug: row.slug }));
    },
    enabled: can('Tags_READ'),
    staleTime: 60_000,
    meta: { action: t('actions.loadTags') },
  });
}

/**
 * Stores files through the uploads API (`POST /upload/multiple`, multipart field `files`).
 * `image` keeps them private (the API answers signed URLs, as it does for product images);
 * `thumbnail` makes them public with a permanent URL, for fields that store a URL (a brand's
 * logo, a category's image).
 */
export async function uploadFiles(
  client: PasalClient,
  files: File[],
  uploadType: 'image' | 'thumbnail' | 'landing',
): Promise<UploadResult[]> {
  const form = new FormData();
  for (const file of files) form.append('files', file);
  // The OpenAPI document cannot describe a multipart body here; openapi-fetch sends FormData as
  // it is (the browser sets the boundary).
  return client.post('/upload/multiple', { params: { query: { uploadType } }, body: form as never });
}

/** "12" → 12, "" → undefined: ids travel as text in selects and URLs. */
export function idOf(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : undefined;
}
