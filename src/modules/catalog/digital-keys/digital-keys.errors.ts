import { AppError } from '../../../platform/http/errors';

export const digitalKeyErrors = {
  notDigital: () => new AppError(400, 'PRODUCT_NOT_DIGITAL', 'Only digital products have digital keys'),
  notFound: (id: string) => new AppError(404, 'DIGITAL_KEY_NOT_FOUND', `Digital key ${id} does not exist`),
  notAvailable: (status: string) =>
    new AppError(
      409,
      'DIGITAL_KEY_NOT_AVAILABLE',
      `Only an available key can be revoked; this one is ${status}`,
    ),
};
