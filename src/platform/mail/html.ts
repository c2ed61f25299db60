// HTML the project writes itself (mail bodies, the payment pages): text put into it is escaped.

/** Text safe inside HTML content and double- or single-quoted attributes. */
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
