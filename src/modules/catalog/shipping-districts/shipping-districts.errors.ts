import { AppError } from '../../../platform/http/errors';

export const shippingDistrictErrors = {
  notFound: (id: number) =>
    new AppError(404, 'SHIPPING_DISTRICT_NOT_FOUND', `Shipping district ${id} does not exist`),
};
