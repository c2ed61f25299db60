// Staff notifications: the bell in the header (unread count, the feed, mark read), not a menu
// area. Only this file is imported by the layout; the bell itself (Mantine's popover and its
// positioning library included) loads in its own chunk after sign-in, so the sign-in screen's
// JavaScript does not grow.
import { createElement, lazy, Suspense } from 'react';

const Bell = lazy(() => import('./NotificationBell').then((m) => ({ default: m.NotificationBell })));

/** The header's bell; nothing is shown while its chunk loads. */
export function NotificationBell() {
  return createElement(Suspense, { fallback: null }, createElement(Bell));
}
