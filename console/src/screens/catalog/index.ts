// The catalog: products (with their images, stock, SEO record and digital keys), categories,
// brands, tags, shipping districts and care packages. Each screen loads lazily; the menu shows an
// entry only for what the admin may read.
import {
  type AnyRoute,
  createRoute,
  lazyRouteComponent as lazy,
  type RouteComponent,
} from '@tanstack/react-router';
import type { ScreenArea } from '../../app/area';
import type { PermissionCode } from '../../session/session';

function screen(parent: AnyRoute, path: string, permission: PermissionCode, component: RouteComponent) {
  return createRoute({ getParentRoute: () => parent, path, staticData: { permission }, component });
}

export const catalogArea: ScreenArea = {
  namespace: 'catalog',
  menu: [
    { labelKey: 'catalog:menu.products', path: '/catalog/products', permission: 'Products_READ' },
    { labelKey: 'catalog:menu.categories', path: '/catalog/categories', permission: 'Categories_READ' },
    { labelKey: 'catalog:menu.brands', path: '/catalog/brands', permission: 'Brands_READ' },
    { labelKey: 'catalog:menu.tags', path: '/catalog/tags', permission: 'Tags_READ' },
    {
      labelKey: 'catalog:menu.shippingDistricts',
      path: '/catalog/shipping-districts',
      permission: 'ShippingDistricts_READ',
    },
    {
      labelKey: 'catalog:menu.carePackages',
      path: '/catalog/care-packages',
      permission: 'CarePackages_READ',
    },
  ],
  routes: (parent) => [
    screen(
      parent,
      '/catalog/products',
      'Products_READ',
      lazy(() => import('./ProductsScreen'), 'ProductsScreen'),
    ),
    // "new" is a fixed segment, so it wins over the product id below.
    screen(
      parent,
      '/catalog/products/new',
      'Products_CREATE',
      lazy(() => import('./ProductScreen'), 'NewProductScreen'),
    ),
    screen(
      parent,
      '/catalog/products/$productId',
      'Products_READ',
      lazy(() => import('./ProductScreen'), 'ProductScreen'),
    ),
    screen(
      parent,
      '/catalog/categories',
      'Categories_READ',
      lazy(() => import('./CategoriesScreen'), 'CategoriesScreen'),
    ),
    screen(
      parent,
      '/catalog/brands',
      'Brands_READ',
      lazy(() => import('./BrandsScreen'), 'BrandsScreen'),
    ),
    screen(
      parent,
      '/catalog/tags',
      'Tags_READ',
      lazy(() => import('./TagsScreen'), 'TagsScreen'),
    ),
    screen(
      parent,
      '/catalog/shipping-districts',
      'ShippingDistricts_READ',
      lazy(() => import('./ShippingDistrictsScreen'), 'ShippingDistrictsScreen'),
    ),
    screen(
      parent,
      '/catalog/care-packages',
      'CarePackages_READ',
      lazy(() => import('./CarePackagesScreen'), 'CarePackagesScreen'),
    ),
    screen(
      parent,
      '/catalog/care-packages/new',
      'CarePackages_CREATE',
      lazy(() => import('./CarePackageScreen'), 'NewCarePackageScreen'),
    ),
    screen(
      parent,
      '/catalog/care-packages/$carePackageId',
      'CarePackages_READ',
      lazy(() => import('./CarePackageScreen'), 'CarePackageScreen'),
    ),
  ],
};
