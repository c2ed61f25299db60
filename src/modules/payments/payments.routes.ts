import { z } from 'zod';
import { access } from '../../platform/auth/access';
import type { ApiApp, ModuleContext } from '../../platform/module';
import { sandboxRedirectParams } from './gateways/sandbox';
import { paymentErrors } from './payments.errors';
import { messagePage, redirectPage, sandboxPage } from './payments.pages';
import {
  flattenParams,
  gatewayParamsInput,
  paymentIdParams,
  resultQuery,
  sandboxOutcomeBody,
} from './payments.schemas';
import {
  getPayment,
  getPendingOnlinePayment,
  handleRedirect,
  isAllowedReturnUrl,
  type PaymentsDeps,
  type RedirectJobs,
} from './payments.service';

const FORM = 'application/x-www-form-urlencoded';

/** An answer that is a page for the customer's browser, not the JSON envelope. */
const htmlPage = (description: string) => ({
  description,
  content: { 'text/html': { schema: z.string().meta({ description: 'An HTML page (UTF-8)' }) } },
});
const FORM_BODY_LIMIT = 16 * 1024;

export async function paymentsRoutes(ctx: ModuleContext, deps: PaymentsDeps, jobs: RedirectJobs) {
  // Gateways and the sandbox page post HTML forms: parse them here only, not for the whole API.
  await ctx.app.register(async (scope) => {
    const app = scope as unknown as ApiApp;
    app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_req, body, done) => {
      const parsed: Record<string, string | string[]> = {};
      for (const [key, value] of new URLSearchParams(body as string)) {
        const seen = parsed[key];
        if (seen === undefined) parsed[key] = value;
        else parsed[key] = Array.isArray(seen) ? [...seen, value] : [seen, value];
      }
      done(null, parsed);
    });

    if (ctx.config.PAYMENTS_MODE === 'sandbox') {
      app.get(
        '/api/payments/sandbox/:paymentId',
        {
          config: {
            access: access.public(),
            operation: 'getSandboxPayment',
            errors: [paymentErrors.notFound()],
          },
          schema: {
            tags: ['payments'],
            summary: 'Sandbox checkout page (PAYMENTS_MODE=sandbox): Pay or Fail a payment by hand',
            params: paymentIdParams,
            response: { 200: htmlPage('The sandbox page with its Pay and Fail buttons') },
          },
        },
        async (request, reply) => {
          const payment = await getPendingOnlinePayment(deps, request.params.paymentId);
          return reply
            .type('text/html; charset=utf-8')
            .header('cache-control', 'no-store')
            .send(
              sandboxPage({
                paymentId: payment.id,
                orderNumber: payment.orderNumber,
                amount: payment.amount,
                status: payment.status,
                action: `/api/payments/sandbox/${payment.id}`,
              }),
            );
        },
      );

      app.post(
        '/api/payments/sandbox/:paymentId',
        {
          config: {
            access: access.public(),
            operation: 'submitSandboxPayment',
            errors: [paymentErrors.notFound()],
          },
          schema: {
            tags: ['payments'],
            summary: 'The sandbox page buttons: 302 to the signed success or failure redirect',
            params: paymentIdParams,
            body: sandboxOutcomeBody,
          },
        },
        async (request, reply) => {
          const payment = await getPendingOnlinePayment(deps, request.params.paymentId);
          const { outcome } = request.body;
          const query = new URLSearchParams(
            sandboxRedirectParams(ctx.config.URL_SIGNING_SECRET, payment, outcome),
          );
          return reply.redirect(`/api/payments/redirect/${payment.id}/${outcome}?${query}`, 302);
        },
      );
    }

    for (const kind of ['success', 'failure'] as const) {
      const url = `/api/payments/redirect/:paymentId/${kind}`;
      const name = kind === 'success' ? 'PaymentSuccess' : 'PaymentFailure';
      const options = {
        config: { access: access.public(), operation: `handle${name}Redirect` },
        schema: {
          tags: ['payments'],
          summary: `The provider's ${kind} redirect: verifies, queues the outcome, 302 to the result page`,
          params: paymentIdParams,
          // No querystring schema: gateway parameters are free-form (read below as strings).
        },
      };
      app.get(url, options, async (request, reply) => {
        const params = flattenParams(request.query as Record<string, string | string[]>);
        return reply.redirect(await handleRedirect(deps, jobs, request.params.paymentId, kind, params), 302);
      });
      app.post(
        url,
        {
          config: { ...options.config, operation: `handle${name}FormPost` },
          schema: { ...options.schema, body: gatewayParamsInput },
        },
        async (request, reply) => {
          // A form post's fields win over the same names in the query.
          const params = {
            ...flattenParams(request.query as Record<string, string | string[]>),
            ...flattenParams(request.body),
          };
          return reply.redirect(
            await handleRedirect(deps, jobs, request.params.paymentId, kind, params),
            302,
          );
        },
      );
    }

    app.get(
      '/api/payments/result',
      {
        config: { access: access.public(), operation: 'getPaymentResult' },
        schema: {
          tags: ['payments'],
          summary:
            "Sends the customer back to the payment's stored return URL with payment_status and order_id",
          description:
            'A page for the browser, never JSON. The provider redirect routes answer 302 to this route; it answers 200 with a page that forwards the browser at once to the return URL (with `payment_status`, `order_id`, `payment_id`), or says the outcome when the return URL is no longer allowed, and 404 with a page when the payment is unknown.',
          querystring: resultQuery,
          response: {
            200: htmlPage(
              'A page forwarding the browser to the return URL, or saying the payment status when that URL is no longer allowed',
            ),
            404: htmlPage('A page saying the payment was not found'),
          },
        },
      },
      async (request, reply) => {
        const html = reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
        const payment = request.query.payment_id
          ? await getPayment(deps.db, request.query.payment_id)
          : undefined;
        if (!payment) {
          return html.code(404).send(messagePage('Payment not found', 'We could not find this payment.'));
        }
        // Re-checked: a return URL allowed when the order was made may have been removed since.
        if (!isAllowedReturnUrl(ctx.config.PAYMENT_RETURN_URL_ALLOWLIST, payment.returnUrl)) {
          return html.send(
            messagePage('Payment result', `Your payment is ${payment.status}. You may close this page.`),
          );
        }
        const target = new URL(payment.returnUrl);
        target.searchParams.set('payment_status', payment.status);
        target.searchParams.set('order_id', String(payment.orderId));
        target.searchParams.set('payment_id', payment.id);
        return html.send(redirectPage(target.toString()));
      },
    );
  });
}
