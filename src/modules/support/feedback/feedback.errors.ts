import { AppError } from '../../../platform/http/errors';

export const feedbackErrors = {
  notFound: () => new AppError(404, 'FEEDBACK_NOT_FOUND', 'Feedback not found'),
};
