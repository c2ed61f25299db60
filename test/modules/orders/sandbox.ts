// Paying in the payments module's sandbox the way a browser does: the page, a button, the
// signed redirect back, then the verification job. Shared by the orders tests that go through
// the real orders ↔ payments wiring.
import { expect } from 'vitest';
import type { TestApp } from '../../helpers/app';

/** Presses a sandbox button and follows the redirect to the result page; answers that redirect's path. */
export async function pressSandboxButton(
  t: TestApp,
  paymentId: string,
  outcome: 'success' | 'failure',
): Promise<string> {
  const page = await t.app.inject({ method: 'GET', url: `/api/payments/sandbox/${paymentId}` });
  expect(page.statusCode).toBe(200);
  expect(page.headers['content-type']).toContain('text/html');
  const pressed = await t.app.inject({
    method: 'POST',
    url: `/api/payments/sandbox/${paymentId}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `outcome=${outcome}`,
  });
  expect(pressed.statusCode).toBe(302);
  const redirect = String(pressed.headers.location).replace(/^https?:\/\/[^/]+/, '');
  expect(redirect).toContain(`/api/payments/redirect/${paymentId}/${outcome}`);
  const back = await t.app.inject({ method: 'GET', url: redirect });
  expect(back.statusCode).toBe(302);
  expect(String(back.headers.location)).toContain('/api/payments/result');
  return redirect;
}

/** Presses the button, then runs the verification job: the order has its outcome afterwards. */
export async function payInSandbox(t: TestApp, paymentId: string, outcome: 'success' | 'failure') {
  const redirect = await pressSandboxButton(t, paymentId, outcome);
  await t.drainJobs();
  return redirect;
}
