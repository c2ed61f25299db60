// The email that carries a customer's licence keys. Each key stands alone on its own line in
// the text part, so it can be copied whole.

import { escapeHtml } from '../../../platform/mail/html';
import type { MailMessage } from '../../../platform/mail/mailer';

export interface DigitalKeysMailInput {
  to: string;
  name: string;
  orderNumber: string;
  webUrl: string;
  items: Array<{ productTitle: string; keys: string[] }>;
}

export function digitalKeysEmail(input: DigitalKeysMailInput): MailMessage {
  const ordersUrl = `${input.webUrl}/orders`;
  const text = [
    `Hello ${input.name},`,
    '',
    `Here are the keys for your order ${input.orderNumber}.`,
    '',
    ...input.items.flatMap((item) => [`${item.productTitle}:`, ...item.keys, '']),
    `Your orders: ${ordersUrl}`,
    '',
    'Keep this email: anyone holding a key can activate it.',
  ].join('\n');
  const html = [
    `<p>${escapeHtml(`Hello ${input.name},`)}</p>`,
    `<p>${escapeHtml(`Here are the keys for your order ${input.orderNumber}.`)}</p>`,
    ...input.items.map(
      (item) =>
        `<p><strong>${escapeHtml(item.productTitle)}</strong><br>${item.keys
          .map((k) => `<code>${escapeHtml(k)}</code>`)
          .join('<br>')}</p>`,
    ),
    `<p><a href="${escapeHtml(ordersUrl)}">Your orders</a></p>`,
    '<p>Keep this email: anyone holding a key can activate it.</p>',
  ].join('\n');
  return { to: input.to, subject: `Your keys for order ${input.orderNumber}`, text, html };
}
