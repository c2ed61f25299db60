// What leaves the process in span attributes: the scrubbing every exported span goes through.
import { describe, expect, it } from 'vitest';
import { scrubAttributes, scrubText } from '../../src/platform/tracing/tracing';

describe('span attributes', () => {
  it('keep no query string, and a server path shows its route template instead of its values', () => {
    const attributes: Record<string, unknown> = {
      'http.route': '/api/auth/verify-email/:token',
      'url.path': '/api/auth/verify-email/abc123secret',
      'http.target': '/api/auth/verify-email/abc123secret?x=1',
      'url.full':
        'https://rc.esewa.com.np/api/epay/transaction/status/?product_code=EPAYTEST&total_amount=100',
      'url.query': 'product_code=EPAYTEST',
      'http.request.header.authorization': 'Bearer abc',
      'user_agent.original': 'Mozilla/5.0',
      'client.address': '203.0.113.7',
      'http.response.status_code': 200,
    };
    scrubAttributes(attributes as never);
    expect(attributes).toEqual({
      'http.route': '/api/auth/verify-email/:token',
      'url.path': '/api/auth/verify-email/:token',
      'http.target': '/api/auth/verify-email/:token',
      'url.full': 'https://rc.esewa.com.np/api/epay/transaction/status/',
      'http.response.status_code': 200,
    });
  });

  it('replace e-mail addresses, Nepali mobile numbers and tokens anywhere in a text', () => {
    expect(scrubText('mail sita@example.com.np now')).toBe('mail [email] now');
    expect(scrubText('to +977-9841234567 or 9801234567')).toBe('to [phone] or [phone]');
    expect(scrubText('Authorization: Bearer abc.def')).toBe('Authorization: [token]');
    expect(scrubText('t=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl')).toBe('t=[token]');
    expect(scrubText('select "id" from "orders" where "id" = $1')).toBe(
      'select "id" from "orders" where "id" = $1',
    );
  });
});
