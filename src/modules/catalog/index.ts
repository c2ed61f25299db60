// Catalog: what the store sells and how it is found. Products with their categories, brands,
// tags and SEO records, the public catalog and its search; stock, care packages, digital keys
// and shipping districts live in their own sub-areas. Other modules call only what is exported here.
import type { PasalModule, PermissionGroup } from '../../platform/module';
import {
  carePackagePermissions,
  carePackageSubscriptionPermissions,
} from './care-packages/care-packages.permissions';
import { registerCarePackages } from './care-packages/care-packages.routes';
import {
  brandPermissions,
  categoryPermissions,
  productPermissions,
  seoPermissions,
  tagPermissions,
} from './catalog.permissions';
import { digitalKeyPermissions } from './digital-keys/digital-keys.permissions';
import { digitalKeyRoutes } from './digital-keys/digital-keys.routes';
import { productRoutes } from './products/products.routes';
import { seoRoutes } from './seo/seo.routes';
import { keepDistrictCopies } from './shipping-districts/shipping-districts.copy';
import { shippingDistrictPermissions } from './shipping-districts/shipping-districts.permissions';
import { shippingDistrictRoutes } from './shipping-districts/shipping-districts.routes';
import { inventoryPermissions } from './stock/stock.permissions';
import { registerStock } from './stock/stock.routes';
import { taxonomyRoutes } from './taxonomy/taxonomy.routes';

export type { EligibilityProduct, EligibilityRules } from './care-packages/care-packages.eligibility';
export { isEligible as isCarePackageEligible } from './care-packages/care-packages.eligibility';
export { carePackageSubscriptionPermissions } from './care-packages/care-packages.permissions';
export type { SubscriptionView as CarePackageSubscription } from './care-packages/care-packages.schemas';
export {
  activateSubscription,
  type CarePackageChoice,
  type CarePackageTierInfo,
  cancelSubscription,
  createPendingSubscription,
  eligibleCarePackages,
  expireSubscriptions,
  findCarePackageTier,
  findEligibleCarePackageChoice,
  subscriptionsOfOrderItems,
} from './care-packages/care-packages.service';
export { catalogErrors } from './catalog.errors';
export { productPermissions } from './catalog.permissions';
export { slugify } from './catalog.service';
export { digitalKeyPermissions } from './digital-keys/digital-keys.permissions';
export {
  type AssignOutcome,
  assignDigitalKeys,
  assignedKeysForStaff,
  availableDigitalKeyCounts,
  deliveredKeyCount,
  type RevealedKey,
  revealAssignedKeys,
  revokeDeliveredKeys,
} from './digital-keys/digital-keys.service';
export {
  applyProductReviewAggregates,
  findProductBySlugOrHistory,
  findProductForReviews,
  type ReviewedProduct,
} from './products/products.reviews';
export {
  findProductsForSale,
  getAdminProduct,
  type ProductForSale,
  type PublishedProductCard,
  publishedProductCards,
  sanitizeDescription,
  sanitizeDescriptionReport,
  updateProductReviewAggregates,
} from './products/products.service';
export { seoRecord as seoRecordSchema } from './seo/seo.schemas';
export { findSeoRecord, seoExists } from './seo/seo.service';
export { allShippingDistrictNames } from './shipping-districts/shipping-districts.repository';
export { findShippingDistrict } from './shipping-districts/shipping-districts.service';
export { type LowStockProduct, lowStockProduct, type StockLevel } from './stock/stock.schemas';
export {
  expireStaleReservations,
  extendReservations,
  finalizeStock,
  getStockLevels,
  handOverReservations,
  listLowStockProducts,
  lockStockOf,
  type ReserveOutcome,
  releaseStock,
  reserveStock,
  restockSoldUnits,
  type StockOwner,
  setReservedQuantity,
} from './stock/stock.service';
export { type BrandRef, findBrands } from './taxonomy/taxonomy.repository';

const group = (p: { module: string; codes: string[] }): PermissionGroup => ({
  module: p.module,
  codes: p.codes,
});

export const catalogModule: PasalModule = {
  name: 'catalog',
  events: { publishes: ['product.stock_changed'], subscribes: [] },
  tags: {
    catalog: 'The public catalog: products, categories and brands for the storefront and the app.',
    products: 'Products in the back office: create, change, publish, archive.',
    categories: 'Product categories (back office).',
    brands: 'Product brands (back office).',
    tags: 'Product tags (back office).',
    seo: 'SEO records that categories, products and posts point to.',
    'shipping districts': 'Districts a store ships to, with their delivery charges.',
    inventory: 'Stock levels and the stock ledger of products.',
    'care packages': 'Care packages (extended warranty and service) offered with products.',
    'digital keys': 'Licence keys of digital products.',
  },
  permissions: [
    group(seoPermissions),
    group(categoryPermissions),
    group(brandPermissions),
    group(tagPermissions),
    group(productPermissions),
    group(shippingDistrictPermissions),
    group(inventoryPermissions),
    group(carePackagePermissions),
    group(carePackageSubscriptionPermissions),
    group(digitalKeyPermissions),
  ],
  async register(ctx) {
    // Each sub-area adds its routes and jobs here, one call per sub-area.
    seoRoutes(ctx);
    taxonomyRoutes(ctx);
    productRoutes(ctx);
    shippingDistrictRoutes(ctx);
    keepDistrictCopies(ctx);
    await registerStock(ctx);
    await registerCarePackages(ctx);
    digitalKeyRoutes(ctx);
  },
};
