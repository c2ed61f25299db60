// What the marketing screens' tests share: calls to the API as the demo admin or customer (to
// make data and to check that a change made in the console took effect for the storefront), and
// a staff member with a role of a few permission codes (to check what the console shows them).
import { expect } from '@playwright/test';
import { DEMO_ADMIN } from './console';

/** The customer `npm run seed:demo` creates (scripts/seed-demo.ts). */
export const DEMO_CUSTOMER = { email: 'customer@pasal.demo', password: 'pasal-demo-customer' };
const DEVICE = { deviceId: 'e2e-marketing', deviceType: 'web', deviceName: 'e2e' };

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read by the field each test knows
type Json = any;

export interface Api {
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }>;
  /** The `data` of a call that must answer 2xx. */
  data(method: string, path: string, body?: unknown): Promise<Json>;
}

export function api(baseURL: string, token?: string): Api {
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await fetch(`${baseURL}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.text();
    return { status: answer.status, body: text ? JSON.parse(text) : null };
  };
  return {
    call,
    async data(method, path, body) {
      const answer = await call(method, path, body);
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      return answer.body?.data;
    },
  };
}

export async function adminApi(baseURL: string, who = DEMO_ADMIN): Promise<Api> {
  const session = await api(baseURL).data('POST', '/api/auth/login/email', who);
  return api(baseURL, session.tokens.accessToken);
}

export async function customerApi(baseURL: string, who = DEMO_CUSTOMER): Promise<Api> {
  const session = await api(baseURL).data('POST', '/api/mobile/auth/login/email', {
    ...who,
    deviceInfo: DEVICE,
  });
  return api(baseURL, session.tokens.accessToken);
}

/** A new staff member whose role holds exactly `permissions`; returns how to sign in as them. */
export async function limitedStaff(baseURL: string, name: string, permissions: string[]) {
  const admin = await adminApi(baseURL);
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
  const role = `${name} ${stamp}`;
  await admin.data('POST', '/api/admin/roles', { name: role, permissions });
  const who = { email: `marketing-${stamp}@pasal.demo`, password: `limited-${stamp}-Passw0rd!` };
  await admin.data('POST', '/api/admin/users', {
    name: `${name} ${stamp}`,
    email: who.email,
    role,
    password: who.password,
  });
  return who;
}

export { chooseLanguage } from './console';
