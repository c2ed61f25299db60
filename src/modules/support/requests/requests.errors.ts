import { AppError } from '../../../platform/http/errors';

export const requestErrors = {
  notFound: () => new AppError(404, 'SUPPORT_REQUEST_NOT_FOUND', 'Support request not found'),
  closed: () => new AppError(400, 'SUPPORT_REQUEST_CLOSED', 'This support request is closed'),
  resolutionNoteInvalid: () =>
    new AppError(
      400,
      'SUPPORT_REQUEST_RESOLUTION_NOTE_INVALID',
      'A resolution note is allowed only when the status is resolved or closed',
    ),
};
