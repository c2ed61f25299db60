// The providers' documented send endpoints, the defaults of SPARROW_SMS_URL and AAKASH_SMS_URL.
// Sparrow's documentation writes its endpoint with http://; integrations in use call the same
// host over https://, which keeps the token off the wire, so that is the default.
export const SPARROW_SMS_DEFAULT_URL = 'https://api.sparrowsms.com/v2/sms/';
export const AAKASH_SMS_DEFAULT_URL = 'https://sms.aakashsms.com/sms/v3/send/';
