// Google's FCM HTTP v1 host, the default of FCM_BASE_URL.
export const FCM_DEFAULT_BASE_URL = 'https://fcm.googleapis.com';
