// Support: guest and customer chat inquiries, customer tickets (support requests), feedback,
// and the realtime rooms that carry their messages live. Inquiries may be opened without an
// account; a guest holds an `si_` token that opens only its own inquiry.
import type { PasalModule } from '../../platform/module';
import { INQUIRY_TOKEN_PREFIX, inquiryGuestResolver } from './inquiries/inquiries.access';
import { createSupportEvents } from './realtime/support-events';
import { feedbackPermissions, inquiryPermissions, requestPermissions } from './support.permissions';

export const supportModule: PasalModule = {
  name: 'support',
  permissions: [inquiryPermissions, requestPermissions, feedbackPermissions].map((p) => ({
    module: p.module,
    codes: p.codes,
  })),
  register(ctx) {
    const { db, clock, authenticator } = ctx;
    authenticator.registerGuestResolver(
      INQUIRY_TOKEN_PREFIX,
      inquiryGuestResolver({ db, clock }),
      'SUPPORT_INQUIRY_TOKEN_INVALID',
    );
    const events = createSupportEvents({ realtime: ctx.realtime, clock });
    void events;
  },
};
