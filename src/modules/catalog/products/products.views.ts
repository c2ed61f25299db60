// Product rows as the API shows them: the admin view (with tags and stock), the public list
// item, and image URLs (public keys as they are, private ones signed for a while).
import type { Db } from '../../../platform/db/database';
import { readTogether } from '../../../platform/db/transaction';
import type { ModuleContext } from '../../../platform/module';
import { isPublicKey } from '../../../platform/storage/files';
import { getStockLevels } from '../stock/stock.service';
import * as repo from './products.repository';
import type { AdminProductView, ProductImageView, PublicProductListItem } from './products.schemas';
import type { ProductImage } from './products.table';

/** Lifetime of the URLs of private image keys in a response. */
const PRIVATE_IMAGE_URL_SECONDS = 7200;

type WithStorage = Pick<ModuleContext, 'storage'>;

export async function imageViews(deps: WithStorage, images: ProductImage[]): Promise<ProductImageView[]> {
  return Promise.all(
    images.map(async (image) => ({
      relativePath: image.relativePath,
      alt: image.alt,
      url: isPublicKey(image.relativePath)
        ? deps.storage.publicUrl(image.relativePath)
        : (await deps.storage.signedUrl(image.relativePath, PRIVATE_IMAGE_URL_SECONDS)).url,
    })),
  );
}

/** The URL of a product's first image, its thumbnail; null without images. */
export async function thumbnailUrl(deps: WithStorage, images: ProductImage[]): Promise<string | null> {
  const first = images[0];
  return first ? ((await imageViews(deps, [first]))[0]?.url ?? null) : null;
}

export const iso = (d: Date | null) => d?.toISOString() ?? null;

/** The aggregate columns hold numeric(3,2); the driver may hand them back as text. */
export const rating = (value: number | string | null) => (value === null ? null : Number(value));

export async function adminViews(
  deps: WithStorage,
  db: Db,
  rows: repo.ProductRow[],
): Promise<AdminProductView[]> {
  const ids = rows.map((r) => r.id);
  // db may be the transaction of the write that answers these views.
  const [tagIds, stock] = await readTogether(db, [
    () => repo.tagIdsOf(db, ids),
    () =>
      getStockLevels(
        db,
        rows.filter((r) => r.productKind === 'physical').map((r) => r.id),
      ),
  ]);
  return Promise.all(
    rows.map(async (r) => ({
      id: r.id,
      title: r.title,
      slug: r.slug,
      description: r.description,
      productKind: r.productKind,
      status: r.status,
      isSellable: r.isSellable,
      mrp: r.mrp,
      sp: r.sp,
      effectivePrice: r.effectivePrice,
      categoryId: r.categoryId,
      brandId: r.brandId,
      tagIds: tagIds.get(r.id) ?? [],
      images: await imageViews(deps, r.images),
      specifications: r.specifications,
      seoId: r.seoId,
      carePackageTierId: r.carePackageTierId,
      averageRating: rating(r.averageRating),
      reviewCount: r.reviewCount,
      stock: r.productKind === 'physical' ? (stock.get(r.id) ?? null) : null,
      publishedAt: iso(r.publishedAt),
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    })),
  );
}

export async function adminView(deps: WithStorage, db: Db, row: repo.ProductRow): Promise<AdminProductView> {
  const [view] = await adminViews(deps, db, [row]);
  return view!;
}

export async function publicListItem(
  deps: WithStorage,
  r: repo.PublicListRow,
): Promise<PublicProductListItem> {
  const p = r.product;
  return {
    id: p.id,
    title: p.title,
    slug: p.slug,
    productKind: p.productKind,
    isSellable: p.isSellable,
    mrp: p.mrp,
    sp: p.sp,
    effectivePrice: p.effectivePrice,
    categoryId: p.categoryId,
    brandId: p.brandId,
    thumbnailUrl: await thumbnailUrl(deps, p.images),
    category: r.category,
    brand: r.brand,
    averageRating: p.reviewCount > 0 ? rating(p.averageRating) : null,
    reviewCount: p.reviewCount,
    inStock: Boolean(r.inStock),
    publishedAt: iso(p.publishedAt),
    createdAt: p.createdAt.toISOString(),
  };
}
