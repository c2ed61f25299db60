import { AppError } from '../../../platform/http/errors';
import { cartErrors } from '../../cart';

// Reorder's codes from the interface's Errors table (ORDER_NOT_FOUND and ORDER_ACCESS_DENIED
// come from orders.errors.ts, the stock and quantity codes from the cart's add).
export const reorderErrors = {
  notDelivered: () => new AppError(400, 'ORDER_NOT_DELIVERED', 'Only a delivered order can be ordered again'),
  productNotInOrder: (productId: number) => cartErrors.productNotFound(productId, 'is not in this order'),
  productNotSold: (productId: number) => cartErrors.productNotFound(productId, 'is no longer on sale'),
  digitalOnly: () =>
    new AppError(
      400,
      'ORDER_HAS_DIGITAL_ONLY',
      'Nothing to reorder: the selection holds no physical product',
    ),
};
