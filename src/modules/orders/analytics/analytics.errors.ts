import { AppError } from '../../../platform/http/errors';

/** The interface's code for a date range over its limit (there: the POS export), reused here. */
export const analyticsErrors = {
  rangeTooLarge: (maxDays: number) =>
    new AppError(
      400,
      'ORDER_DATE_RANGE_TOO_LARGE',
      `A custom analytics range may span at most ${maxDays} days`,
      { maxDays },
    ),
};
