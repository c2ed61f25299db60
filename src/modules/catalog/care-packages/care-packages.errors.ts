import { AppError, httpErrors } from '../../../platform/http/errors';

export const carePackageErrors = {
  notFound: (id: number) => new AppError(404, 'CARE_PACKAGE_NOT_FOUND', `Care package ${id} does not exist`),
  inUse: () =>
    new AppError(
      409,
      'CARE_PACKAGE_IN_USE',
      'The care package has subscriptions or is sold as a product; deactivate it instead',
    ),
  /** A rule names a category, brand or product that does not exist. */
  ruleInvalid: (path: string, ids: number[]) =>
    new AppError(
      400,
      'CARE_PACKAGE_RULE_INVALID',
      `${path} names records that do not exist: ${ids.join(', ')}`,
      {
        details: [
          {
            path: `rules.${path}`,
            message: `unknown ids ${ids.join(', ')}`,
            code: 'unknown_ids',
            location: 'body',
          },
        ],
      },
    ),
  priceRange: () =>
    httpErrors.validation([
      {
        path: 'rules.maxPrice',
        message: 'minPrice must not be above maxPrice',
        code: 'min_above_max',
        location: 'body',
      },
    ]),
  tierInvalid: (id: number) =>
    new AppError(400, 'CARE_PACKAGE_TIER_INVALID', `Tier ${id} is not a tier of this care package`),
  tierNotFound: (id: number) =>
    new AppError(404, 'CARE_PACKAGE_TIER_NOT_FOUND', `Care package tier ${id} does not exist`),
  subscriptionNotFound: (id: string) =>
    new AppError(404, 'CARE_PACKAGE_SUBSCRIPTION_NOT_FOUND', `Subscription ${id} does not exist`),
  subscriptionStatus: (id: string, status: string, wanted: string) =>
    new AppError(
      409,
      'CARE_PACKAGE_SUBSCRIPTION_INVALID_TRANSITION',
      `Subscription ${id} is ${status} and cannot become ${wanted}`,
    ),
};
