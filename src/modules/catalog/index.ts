// Catalog: what the store sells and how it is found. Products with their categories, brands,
// tags and SEO records, the public catalog and its search; stock, care packages, digital keys
// and shipping districts live in their own sub-areas. Other modules call only what is exported here.
import type { PasalModule, PermissionGroup } from '../../platform/module';
import {
  brandPermissions,
  categoryPermissions,
  productPermissions,
  seoPermissions,
  tagPermissions,
} from './catalog.permissions';
import { shippingDistrictPermissions } from './shipping-districts/shipping-districts.permissions';
import { shippingDistrictRoutes } from './shipping-districts/shipping-districts.routes';

export { findShippingDistrict } from './shipping-districts/shipping-districts.service';

const group = (p: { module: string; codes: string[] }): PermissionGroup => ({
  module: p.module,
  codes: p.codes,
});

export const catalogModule: PasalModule = {
  name: 'catalog',
  permissions: [
    group(seoPermissions),
    group(categoryPermissions),
    group(brandPermissions),
    group(tagPermissions),
    group(productPermissions),
    group(shippingDistrictPermissions),
  ],
  async register(ctx) {
    // Each sub-area adds its routes and jobs here, one call per sub-area.
    shippingDistrictRoutes(ctx);
  },
};
