import { definePermissions } from '../../platform/auth/access';

export const seoPermissions = definePermissions('Seo', ['READ', 'CREATE', 'UPDATE', 'DELETE'] as const);
export const categoryPermissions = definePermissions('Categories', [
  'READ',
  'CREATE',
  'UPDATE',
  'DELETE',
] as const);
export const brandPermissions = definePermissions('Brands', ['READ', 'CREATE', 'UPDATE', 'DELETE'] as const);
export const tagPermissions = definePermissions('Tags', ['READ', 'CREATE', 'UPDATE', 'DELETE'] as const);
export const productPermissions = definePermissions('Products', [
  'READ',
  'CREATE',
  'UPDATE',
  'DELETE',
] as const);
