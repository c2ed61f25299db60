// Dashboard: the back office's first screen in one call. It owns no tables and no rules: it
// asks orders, catalog and support for their figures through their exported functions.
import type { PasalModule } from '../../platform/module';
import { dashboardRoutes } from './dashboard.routes';

export const dashboardModule: PasalModule = {
  name: 'dashboard',
  tags: {
    dashboard: "The back office's overview: sales, stock and support at a glance.",
  },
  register(ctx) {
    dashboardRoutes(ctx);
  },
};
