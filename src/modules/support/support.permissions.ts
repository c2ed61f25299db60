import { definePermissions } from '../../platform/auth/access';

export const inquiryPermissions = definePermissions('SupportInquiries', ['READ', 'UPDATE'] as const);
export const requestPermissions = definePermissions('SupportRequests', ['READ', 'UPDATE'] as const);
export const feedbackPermissions = definePermissions('Feedback', ['READ', 'UPDATE'] as const);
