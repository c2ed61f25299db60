// Every module's tables, for drizzle-kit (migrations) and nothing else.
export * from '../modules/activity/activity.table';
export * from '../modules/catalog/products/products.table';
export * from '../modules/catalog/seo/seo.table';
export * from '../modules/catalog/taxonomy/taxonomy.table';
export * from '../modules/identity/identity.table';
export * from '../modules/system/system.table';
