import { z } from 'zod';

export const UPLOAD_TYPES = ['avatar', 'image', 'file', 'landing', 'thumbnail', 'video'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];
export const CUSTOMER_UPLOAD_TYPES = ['avatar', 'image', 'file'] as const satisfies readonly UploadType[];
/** Stored under `public/` with a permanent URL; every other type is private. */
export const PUBLIC_UPLOAD_TYPES: ReadonlySet<UploadType> = new Set(['avatar', 'landing', 'thumbnail']);
/** Accept only images judged by their bytes; `file` and `video` accept any file. */
export const IMAGE_UPLOAD_TYPES: ReadonlySet<UploadType> = new Set([
  'avatar',
  'image',
  'landing',
  'thumbnail',
]);

export const MAX_EXPIRES_IN = 604_800; // 7 days: also the longest an S3 presigned URL may live

// uploadType is checked by the service, so a wrong value answers UPLOAD_TYPE_INVALID.
export const uploadQuery = z.object({
  uploadType: z.string().optional(),
  optimize: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .default(true),
});

const expiresIn = z.number().int().min(1).max(MAX_EXPIRES_IN);

export const keyParams = z.object({ '*': z.string().describe('A stored relativePath, slashes included') });

export const signedUrlQuery = z.object({
  expiresIn: z
    .string()
    .regex(/^\d+$/, 'expected whole seconds')
    .transform(Number)
    .pipe(expiresIn)
    .optional()
    .describe('Seconds, 1 to 604800; default 7200'),
});

export const signedUrlsBody = z.object({
  keys: z.array(z.string()).min(1).max(100),
  expiresIn: expiresIn.optional(),
});

export const objectUrl = z.object({
  url: z.string(),
  expiresAt: z.number().int().nullable().describe('Epoch milliseconds; null for a permanent URL'),
});

export const uploadResult = z
  .object({
    filename: z.string(),
    originalName: z.string(),
    mimeType: z.string().describe('From the stored bytes; image/webp when an image was optimised'),
    size: z.number().int().describe('Stored size in bytes'),
    relativePath: z
      .string()
      .describe('The key to persist: uploads/<type>/<filename> or public/<type>/<filename>'),
    url: z.string(),
    expiresAt: z.number().int().nullable(),
  })
  .meta({ id: 'UploadResult' });
export type UploadResult = z.infer<typeof uploadResult>;
