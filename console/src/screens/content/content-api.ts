// The public read of a page (GET /api/content/pages/{pageKey}): what the storefront receives,
// or null when the page was never made (the public route never creates one).
import type { PasalClient } from '@pasal/client';
import { isPasalError } from '../../lib/api-errors';
import type { PageKey } from './section-forms';

export async function fetchPublicPage(client: PasalClient, pageKey: PageKey) {
  try {
    return await client.get('/api/content/pages/{pageKey}', { params: { path: { pageKey } } });
  } catch (error) {
    if (isPasalError(error, 'CONTENT_NOT_FOUND')) return null;
    throw error;
  }
}
