// The support inbox: guest and customer inquiries (chats) and customer tickets in one live list,
// each conversation answered, assigned and closed in place; and the customers' feedback.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { ScreenArea } from '../../app/area';

const inbox = lazyRouteComponent(() => import('./InboxScreen'), 'InboxScreen');

export const supportArea: ScreenArea = {
  namespace: 'support',
  menu: [
    // A role with tickets but not inquiries still reaches the inbox from the dashboard's link;
    // the menu entry names one code, and inquiries are what most support roles answer first.
    { labelKey: 'support:menu.inbox', path: '/support', permission: 'SupportInquiries_READ' },
    { labelKey: 'support:menu.feedback', path: '/feedback', permission: 'Feedback_READ' },
  ],
  routes: (parent) => [
    // The inbox needs inquiries or tickets (either suffices): the screen shows what the role
    // may read, so the route names no single code.
    createRoute({
      getParentRoute: () => parent,
      path: '/support',
      staticData: { permission: null },
      component: inbox,
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/support/inquiries/$inquiryId',
      staticData: { permission: 'SupportInquiries_READ' },
      component: inbox,
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/support/tickets/$ticketId',
      staticData: { permission: 'SupportRequests_READ' },
      component: inbox,
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/feedback',
      staticData: { permission: 'Feedback_READ' },
      component: lazyRouteComponent(() => import('./FeedbackScreen'), 'FeedbackScreen'),
    }),
  ],
};
