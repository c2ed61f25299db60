// Every module's tables, for drizzle-kit (migrations) and nothing else.
export * from '../modules/activity/activity.table';
export * from '../modules/identity/identity.table';
export * from '../modules/notifications/notifications.table';
export * from '../modules/support/feedback/feedback.table';
export * from '../modules/support/inquiries/inquiries.table';
export * from '../modules/support/realtime/support-events.table';
export * from '../modules/support/requests/requests.table';
export * from '../modules/system/system.table';
