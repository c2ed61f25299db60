// GET /api/admin/dashboard (operationId adminGetDashboard): today and the last 30 days in the
// store's time zone. A section (or, in support, a single figure) is null when the admin's role
// may not see it.
import type { PasalClient, paths } from '@pasal/client';

export type Dashboard =
  paths['/api/admin/dashboard']['get']['responses'][200]['content']['application/json']['data'];

export function fetchDashboard(client: PasalClient): Promise<Dashboard> {
  return client.get('/api/admin/dashboard');
}
