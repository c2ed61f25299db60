import { AppError } from '../../../platform/http/errors';

// The interface's codes for testimonials.
export const testimonialErrors = {
  notFound: () => new AppError(404, 'TESTIMONIAL_NOT_FOUND', 'Testimonial not found'),
  createFailed: () => new AppError(400, 'TESTIMONIAL_CREATE_FAILED', 'The testimonial could not be created'),
  invalidSort: (sort: string, allowed: readonly string[]) =>
    new AppError(
      400,
      'TESTIMONIAL_INVALID_SORT',
      `Unsupported sort "${sort}"; use one of ${allowed.join(', ')}`,
    ),
};
