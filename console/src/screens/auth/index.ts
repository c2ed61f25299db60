// The screens before signing in: sign-in, forgot password, reset password. They hang off the
// root (no menu, no session needed). Sign-in is part of the first chunk, as it is the first
// screen; the other two load when opened.
import { type AnyRoute, createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import type { RouterContext } from '../../app/router-context';
import { safeRedirect } from './AuthFrame';
import { SignInScreen } from './SignInScreen';

export function authRoutes(root: AnyRoute): AnyRoute[] {
  return [
    createRoute({
      getParentRoute: () => root,
      path: '/sign-in',
      // Already signed in (a bookmark, the Back button): straight on.
      beforeLoad: ({ context, search }) => {
        if ((context as RouterContext).session.status() === 'signed-in') {
          throw redirect({ to: safeRedirect((search as { redirect?: unknown }).redirect) });
        }
      },
      component: SignInScreen,
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/forgot-password',
      component: lazyRouteComponent(() => import('./ForgotPasswordScreen'), 'ForgotPasswordScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      // The API's reset email links to `<web>/reset-password?token=…`; at /admin/reset-password
      // the console takes the same `token` (or the emailed code typed by hand).
      path: '/reset-password',
      component: lazyRouteComponent(() => import('./ResetPasswordScreen'), 'ResetPasswordScreen'),
    }),
  ];
}
