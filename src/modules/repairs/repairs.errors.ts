import { AppError } from '../../platform/http/errors';

export const repairErrors = {
  notFound: () => new AppError(404, 'REPAIR_REQUEST_NOT_FOUND', 'Repair request not found'),
  notOwned: () =>
    new AppError(403, 'REPAIR_REQUEST_NOT_OWNED', 'This repair request belongs to another account'),
  cannotCancel: (status: string) =>
    new AppError(422, 'REPAIR_REQUEST_CANNOT_CANCEL', 'Only a request not yet collected can be cancelled', {
      status,
    }),
  invalidTransition: (from: string, to: string) =>
    new AppError(
      400,
      'REPAIR_REQUEST_INVALID_STATUS_TRANSITION',
      `A repair request cannot move from ${from} to ${to}`,
      { fromStatus: from, toStatus: to },
    ),
  orderNotFound: () => new AppError(404, 'REPAIR_REQUEST_ORDER_NOT_FOUND', 'Linked order not found'),
  orderNotOwned: () =>
    new AppError(403, 'REPAIR_REQUEST_ORDER_NOT_OWNED', 'The linked order belongs to another account'),
  brandRequired: (deviceIndex: number) =>
    new AppError(
      422,
      'REPAIR_REQUEST_DEVICE_BRAND_REQUIRED',
      'Each device needs brandId or customBrandName',
      {
        deviceIndex,
      },
    ),
  brandConflict: (deviceIndex: number) =>
    new AppError(
      422,
      'REPAIR_REQUEST_DEVICE_BRAND_CONFLICT',
      'A device takes brandId or customBrandName, not both',
      { deviceIndex },
    ),
  brandNotFound: (deviceIndex: number) =>
    new AppError(404, 'REPAIR_REQUEST_BRAND_NOT_FOUND', 'Brand not found', { deviceIndex }),
  noDevices: () =>
    new AppError(422, 'REPAIR_REQUEST_NO_DEVICES', 'A repair request needs at least one device'),
  createFailed: () =>
    new AppError(500, 'REPAIR_REQUEST_CREATE_FAILED', 'The repair request could not be created, try again'),
  orderItemNotInOrder: (deviceIndex: number) =>
    new AppError(
      422,
      'REPAIR_REQUEST_ORDER_ITEM_NOT_IN_ORDER',
      'orderItemId must be an item of the linked order',
      { deviceIndex },
    ),
  collectionMethodLocked: (status: string) =>
    new AppError(
      422,
      'REPAIR_REQUEST_COLLECTION_METHOD_LOCKED',
      'The collection method can change only before the device is collected',
      { status },
    ),
};
