// The email of an order event (the interface's notification events are "delivered by push and
// by email"): one per event, from the same title and sentence as the in-app notice, in the
// store's name, with a link to the order in the storefront.

import { escapeHtml } from '../../platform/mail/html';
import type { MailMessage } from '../../platform/mail/mailer';

export function orderEventEmail(input: {
  to: string;
  storeName: string;
  webUrl: string;
  orderId: number;
  orderNumber: string;
  title: string;
  sentence: string;
}): MailMessage {
  const orderUrl = `${input.webUrl}/orders/${input.orderId}`;
  const text = ['Hello,', '', input.sentence, '', `Your order: ${orderUrl}`, '', input.storeName].join('\n');
  const html = [
    '<p>Hello,</p>',
    `<p>${escapeHtml(input.sentence)}</p>`,
    `<p><a href="${escapeHtml(orderUrl)}">Your order ${escapeHtml(input.orderNumber)}</a></p>`,
    `<p>${escapeHtml(input.storeName)}</p>`,
  ].join('\n');
  return { to: input.to, subject: `${input.storeName}: ${input.title} (${input.orderNumber})`, text, html };
}
