import { definePermissions } from '../../platform/auth/access';

export const emiConfigPermissions = definePermissions('EmiConfig', ['READ', 'UPDATE'] as const);
export const emiBankPermissions = definePermissions('EmiBanks', [
  'CREATE',
  'READ',
  'UPDATE',
  'DELETE',
] as const);
export const emiInquiryPermissions = definePermissions('EmiInquiries', ['READ', 'UPDATE'] as const);
