import { definePermissions } from '../../../platform/auth/access';

export const carePackagePermissions = definePermissions('CarePackages', [
  'READ',
  'CREATE',
  'UPDATE',
  'DELETE',
] as const);
