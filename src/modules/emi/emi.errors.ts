import { AppError } from '../../platform/http/errors';

export const emiErrors = {
  disabled: () => new AppError(422, 'EMI_DISABLED', 'Instalment purchases are not available right now'),
  bankNotFound: (bankIds?: number[]) =>
    new AppError(404, 'EMI_BANK_NOT_FOUND', 'EMI bank not found', bankIds ? { bankIds } : undefined),
  inquiryNotFound: () => new AppError(404, 'EMI_INQUIRY_NOT_FOUND', 'EMI inquiry not found'),
  productNotFound: () => new AppError(404, 'EMI_PRODUCT_NOT_FOUND', 'Product not found'),
  configNotFound: () => new AppError(404, 'EMI_CONFIG_NOT_FOUND', 'EMI has not been configured yet'),
};
