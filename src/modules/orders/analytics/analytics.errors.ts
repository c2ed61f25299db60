import { AppError } from '../../../platform/http/errors';

/**
 * The interface's code for a date range of orders over its limit: the POS export's (which
 * imports it from here) and the analytics' custom range.
 */
export const analyticsErrors = {
  rangeTooLarge: (maxDays: number, what = 'A custom analytics range') =>
    new AppError(400, 'ORDER_DATE_RANGE_TOO_LARGE', `${what} may span at most ${maxDays} days`, { maxDays }),
};
