import { access } from '../../platform/auth/access';
import { currentUser } from '../../platform/http/access-hook';
import { envelopeSchema, ok } from '../../platform/http/envelope';
import type { ModuleContext } from '../../platform/module';
import { dashboardView } from './dashboard.schemas';
import { getDashboard } from './dashboard.service';

export function dashboardRoutes(ctx: ModuleContext) {
  ctx.app.get(
    '/api/admin/dashboard',
    {
      // Any admin: each section checks its own read permission (docs/api-notes.md, "Dashboard").
      config: { access: access.admin() },
      schema: {
        tags: ['dashboard'],
        summary:
          "Today and the last 30 days in the store's time zone (orders by status, revenue, revenue per day), products low in stock, and support waiting for staff",
        description:
          'Days are calendar days of STORE_TIMEZONE. Revenue is `finalPayable` of the orders placed in the period whose payment is `completed` or `cod_collected` (as `GET /api/admin/orders/analytics`), refunds not deducted. Each section is null when the admin lacks its read permission: `today` and `last30Days` need Orders_READ, `lowStock` Products_READ, `support` SupportInquiries_READ or SupportRequests_READ (a count the admin may not read is null).',
        response: { 200: envelopeSchema(dashboardView) },
      },
    },
    async (request) => ok(await getDashboard(ctx, currentUser(request).permissions), 'Dashboard'),
  );
}
