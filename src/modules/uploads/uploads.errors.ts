import { AppError, httpErrors } from '../../platform/http/errors';
import { storageErrors } from '../../platform/storage/files';

export const uploadErrors = {
  ...storageErrors,
  fileRequired: (message = 'A file is required in the multipart field `file`') =>
    new AppError(400, 'UPLOAD_FILE_REQUIRED', message),
  tooManyFiles: (max: number) =>
    new AppError(400, 'UPLOAD_TOO_MANY_FILES', `At most ${max} files may be sent at once`),
  typeInvalid: (allowed: readonly string[]) =>
    new AppError(400, 'UPLOAD_TYPE_INVALID', `uploadType must be one of: ${allowed.join(', ')}`, { allowed }),
  typeNotAllowed: (uploadType: string) =>
    new AppError(
      400,
      'UPLOAD_TYPE_NOT_ALLOWED',
      `uploadType ${uploadType} accepts only images: JPEG, PNG, WebP, GIF, AVIF or HEIC`,
      { allowed: ['jpeg', 'png', 'webp', 'gif', 'avif', 'heic'] },
    ),
  multipartMalformed: (reason: string) =>
    httpErrors.validation(
      [{ path: '', message: reason, location: 'body' }],
      'The multipart body could not be read',
    ),
  tooLarge: (maxBytes: number) =>
    new AppError(
      413,
      'UPLOAD_FILE_TOO_LARGE',
      `A file may be at most ${Math.floor(maxBytes / 1_048_576)} MB`,
      {
        maxBytes,
      },
    ),
  storageFailed: () => new AppError(502, 'UPLOAD_STORAGE_FAILED', 'The file storage did not accept the file'),
};
