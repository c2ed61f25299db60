// The route tree, built in code: the public sign-in screens at the root, and every screen
// area's routes under the signed-in layout. The console lives at /admin, so paths here start
// after it (`/orders` is /admin/orders).
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  Outlet,
  redirect,
} from '@tanstack/react-router';
import { screenAreas } from '../screens';
import { authRoutes } from '../screens/auth';
import type { SessionStore } from '../session/session-store';
import { NotFound, RouteError } from './fallbacks';
import { ConsoleLayout } from './layout/ConsoleLayout';
import type { RouterContext } from './router-context';

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFound,
  errorComponent: RouteError,
});

const consoleRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'console',
  // Before any screen loads: nobody signed in goes to the sign-in screen, which brings them back.
  // (An ended session stays here: the layout shows "Your session has ended" in place.)
  beforeLoad: ({ context, location }) => {
    if (context.session.status() === 'signed-out') {
      throw redirect({ to: '/sign-in', search: { redirect: location.href } as never });
    }
  },
  component: ConsoleLayout,
});

const routeTree = rootRoute.addChildren([
  ...authRoutes(rootRoute),
  consoleRoute.addChildren(screenAreas.flatMap((area) => area.routes(consoleRoute))),
]);

export function createConsoleRouter(session: SessionStore) {
  return createRouter({
    routeTree,
    context: { session },
    basepath: '/admin',
    // Hovering a menu entry starts loading its screen's chunk.
    defaultPreload: 'intent',
    defaultNotFoundComponent: NotFound,
    defaultErrorComponent: RouteError,
    scrollRestoration: true,
  });
}
