// Support: guest and customer chat inquiries, customer tickets (support requests), feedback,
// and the realtime rooms that carry their messages live. Inquiries may be opened without an
// account; a guest holds an `si_` token that opens only its own inquiry.
import type { PasalModule } from '../../platform/module';
import { createNotifier } from '../notifications';
import { feedbackRoutes } from './feedback/feedback.routes';
import { INQUIRY_TOKEN_PREFIX, inquiryGuestResolver } from './inquiries/inquiries.access';
import { closeInactiveInquiriesJob } from './inquiries/inquiries.jobs';
import { adminInquiryRoutes, inquiryRoutes } from './inquiries/inquiries.routes';
import { createSupportEvents } from './realtime/support-events';
import { registerSupportRealtime } from './realtime/support-realtime';
import { adminRequestRoutes, requestRoutes } from './requests/requests.routes';
import { feedbackPermissions, inquiryPermissions, requestPermissions } from './support.permissions';
import type { SupportDeps } from './support.service';

export { getInquiryForAdmin } from './inquiries/inquiries.service';
export { getRequestForAdmin } from './requests/requests.service';
export { feedbackPermissions, inquiryPermissions, requestPermissions } from './support.permissions';
export { type SupportWorkloadView, supportWorkload, supportWorkloadView } from './support.workload';

export const supportModule: PasalModule = {
  name: 'support',
  events: { publishes: ['inquiry.created', 'ticket.created'], subscribes: [] },
  tags: {
    'support inquiries': 'Contact-form conversations opened by visitors or customers.',
    'support inquiries (admin)': 'Answering and managing support inquiries in the back office.',
    'support requests': "A signed-in customer's support requests.",
    'support requests (admin)': 'Answering and managing support requests in the back office.',
    feedback: 'Customer feedback and its review.',
  },
  permissions: [inquiryPermissions, requestPermissions, feedbackPermissions].map((p) => ({
    module: p.module,
    codes: p.codes,
  })),
  async register(ctx) {
    const { db, clock, config, authenticator, jobs, app } = ctx;
    authenticator.registerGuestResolver(
      INQUIRY_TOKEN_PREFIX,
      inquiryGuestResolver({ db, clock }),
      'SUPPORT_INQUIRY_TOKEN_INVALID',
    );
    const events = createSupportEvents({ realtime: ctx.realtime, clock });
    const deps: SupportDeps = {
      db,
      clock,
      config,
      mail: ctx.mail,
      events,
      notifier: createNotifier({ db: ctx.db, push: ctx.push, clock, realtime: ctx.realtime }),
      realtime: ctx.realtime,
    };

    const sweep = closeInactiveInquiriesJob({
      db,
      clock,
      days: config.SUPPORT_INQUIRIES_INACTIVE_CLOSE_DAYS,
    });
    jobs.register(sweep);
    await jobs.schedule(sweep, config.SUPPORT_INQUIRIES_INACTIVE_CLOSE_CRON, {});

    inquiryRoutes(app, deps);
    adminInquiryRoutes(app, deps);
    requestRoutes(app, deps);
    adminRequestRoutes(app, deps);
    feedbackRoutes(app, deps);
    await registerSupportRealtime(ctx, events);
  },
};
