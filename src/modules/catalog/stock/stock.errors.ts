import { AppError } from '../../../platform/http/errors';

export const stockErrors = {
  belowReserved: (onHand: number, reserved: number) =>
    new AppError(
      400,
      'STOCK_BELOW_RESERVED',
      `On-hand stock cannot go below the ${reserved} reserved unit(s) (asked for ${onHand})`,
      { onHand, reserved },
    ),
  notPhysical: () => new AppError(400, 'PRODUCT_NOT_PHYSICAL', 'Only physical products have stock on hand'),
};
