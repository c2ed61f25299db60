import { definePermissions } from '../../platform/auth/access';

/** One code set for product reviews and testimonials, as the interface's route table names them. */
export const reviewPermissions = definePermissions('Reviews', [
  'READ',
  'CREATE',
  'UPDATE',
  'DELETE',
] as const);
