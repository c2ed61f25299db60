import { definePermissions } from '../../../platform/auth/access';

export const shippingDistrictPermissions = definePermissions('ShippingDistricts', [
  'READ',
  'UPDATE',
] as const);
