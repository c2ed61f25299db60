// Uploads: files sent by admins and customers, kept in object storage (local disk or S3).
// Images are converted to WebP; clients persist the returned `relativePath` and ask for a
// URL when they show the file. Other modules store those keys, never URLs.
import multipart from '@fastify/multipart';
import type { ApiApp, PasalModule } from '../../platform/module';
import { uploadsPermissions } from './uploads.permissions';
import { uploadsRoutes } from './uploads.routes';

export type { UploadResult } from './uploads.schemas';

export const uploadsModule: PasalModule = {
  name: 'uploads',
  tags: {
    uploads: 'Uploading files and signing links to private ones.',
  },
  permissions: [{ module: uploadsPermissions.module, codes: uploadsPermissions.codes }],
  async register(ctx) {
    // Multipart parsing only in this scope: every other route keeps its JSON body rules.
    await ctx.app.register(async (scope) => {
      await scope.register(multipart, { throwFileSizeLimit: true });
      uploadsRoutes({ ...ctx, app: scope as ApiApp });
    });
  },
};
