// The two small HTML pages of the payments area: the sandbox checkout and the result page
// that sends the customer back to the storefront.
import { escapeHtml } from '../../platform/mail/html';

const page = (title: string, body: string, head = '') => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
${head}<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}button{font-size:1rem;padding:.6rem 1.4rem;margin-right:.5rem}</style>
</head>
<body>
${body}
</body>
</html>
`;

export function sandboxPage(p: {
  paymentId: string;
  orderNumber: string;
  amount: number;
  status: string;
  action: string;
}): string {
  const amount = `NPR ${p.amount.toLocaleString('en-US')}`;
  const pending = p.status === 'pending';
  return page(
    'Sandbox payment',
    `<h1>Sandbox payment</h1>
<p>This is the Pasal payment sandbox: no money moves.</p>
<dl>
<dt>Order</dt><dd id="order-number">${escapeHtml(p.orderNumber)}</dd>
<dt>Amount</dt><dd id="amount">${escapeHtml(amount)}</dd>
<dt>Payment</dt><dd id="payment-id">${escapeHtml(p.paymentId)}</dd>
</dl>
${
  pending
    ? `<form method="post" action="${escapeHtml(p.action)}">
<button type="submit" name="outcome" value="success">Pay</button>
<button type="submit" name="outcome" value="failure">Fail</button>
</form>`
    : `<p id="status">This payment is already ${escapeHtml(p.status)}.</p>`
}`,
  );
}

export function redirectPage(target: string): string {
  const safe = escapeHtml(target);
  return page(
    'Payment result',
    `<p>Taking you back to the store… <a id="continue" href="${safe}">Continue</a></p>
<script>window.location.replace(${JSON.stringify(target).replace(/</g, '\\u003c')});</script>`,
    `<meta http-equiv="refresh" content="0;url=${safe}">\n`,
  );
}

export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}
