import { z } from 'zod';
import { lowStockProduct } from '../catalog';
import { orderDashboardView } from '../orders';
import { supportWorkloadView } from '../support';

const orders = orderDashboardView.shape;

export const dashboardView = z.object({
  timeZone: z.string().describe('STORE_TIMEZONE: the calendar every day below belongs to'),
  today: orders.today.nullable().describe('Null without Orders_READ'),
  last30Days: orders.last30Days.nullable().describe('The 30 days ending today; null without Orders_READ'),
  lowStock: z
    .array(lowStockProduct)
    .nullable()
    .describe('At most 10 products low in stock, fewest available first; null without Products_READ'),
  support: supportWorkloadView
    .nullable()
    .describe('Null when the admin holds neither SupportInquiries_READ nor SupportRequests_READ'),
});
export type DashboardView = z.infer<typeof dashboardView>;
