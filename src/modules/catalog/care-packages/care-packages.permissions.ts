import { definePermissions } from '../../../platform/auth/access';

export const carePackagePermissions = definePermissions('CarePackages', [
  'READ',
  'CREATE',
  'UPDATE',
  'DELETE',
] as const);

/** The subscriptions sold with orders; UPDATE activates them (orders' activate-care-package route). */
export const carePackageSubscriptionPermissions = definePermissions('CarePackageSubscriptions', [
  'UPDATE',
] as const);
