import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { filePart, multipartBody } from './multipart';

describe('customer uploads', () => {
  let t: TestApp;
  let customer: SignedIn;
  let ipCounter = 0;
  // Each test its own address: the per-IP limits must not leak from one test into another.
  const nextIp = () => `10.1.0.${++ipCounter}`;

  beforeAll(async () => {
    t = await createTestApp();
    customer = await signedInCustomer(t);
  });
  afterAll(() => t.close());

  async function upload(
    query: string,
    data: Buffer | string,
    remoteAddress: string,
    who: SignedIn = customer,
  ) {
    const body = await multipartBody([filePart(data, 'me.txt')]);
    return t.app.inject({
      method: 'POST',
      url: `/mobile/uploads${query}`,
      headers: { ...who.headers, ...body.headers },
      payload: body.payload,
      remoteAddress,
    });
  }

  it('stores avatar (public), image and file (private) uploads with the same result shape', async () => {
    const ip = nextIp();
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const avatar = await upload('?uploadType=avatar', png, ip);
    expect(avatar.statusCode).toBe(200);
    expect(avatar.json().data).toMatchObject({ mimeType: 'image/webp', expiresAt: null });
    expect(avatar.json().data.relativePath).toMatch(/^public\/avatar\//);
    const image = await upload('', png, ip);
    expect(image.json().data.relativePath).toMatch(/^uploads\/image\//);
    expect(image.json().data.expiresAt).toBeTypeOf('number');
    const file = await upload('?uploadType=file', 'c', ip);
    expect(file.json().data.relativePath).toMatch(/^uploads\/file\//);
  });

  it('refuses landing, thumbnail and video with 400 UPLOAD_TYPE_INVALID', async () => {
    const ip = nextIp();
    for (const type of ['landing', 'thumbnail', 'video', 'nonsense']) {
      const res = await upload(`?uploadType=${type}`, 'x', ip);
      expect(res.statusCode, type).toBe(400);
      expect(res.json().errorCode).toBe('UPLOAD_TYPE_INVALID');
    }
  });

  it('refuses a file over 5 MB with 413 UPLOAD_FILE_TOO_LARGE, whatever the admin limit', async () => {
    const res = await upload('?uploadType=file', Buffer.alloc(5 * 1_048_576 + 1, 'z'), nextIp());
    expect(res.statusCode).toBe(413);
    expect(res.json().errorCode).toBe('UPLOAD_FILE_TOO_LARGE');
    const exact = await upload('?uploadType=file', Buffer.alloc(5 * 1_048_576, 'z'), nextIp());
    expect(exact.statusCode).toBe(200);
  });

  it('refuses admins (403 AUTH_FORBIDDEN) and anonymous callers (401)', async () => {
    const admin = await signedInAdmin(t, { superadmin: true });
    const asAdmin = await upload('', 'x', nextIp(), admin);
    expect(asAdmin.statusCode).toBe(403);
    expect(asAdmin.json().errorCode).toBe('AUTH_FORBIDDEN');
    const anonymous = await t.app.inject({
      method: 'GET',
      url: '/mobile/uploads/signed-url/uploads/image/x.webp',
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('limits uploads to 10 per 60 s per IP (429 RATE_LIMITED with Retry-After)', async () => {
    const ip = nextIp();
    for (let i = 0; i < 10; i++) expect((await upload('?uploadType=file', `n${i}`, ip)).statusCode).toBe(200);
    const limited = await upload('?uploadType=file', 'one more', ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().errorCode).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await upload('?uploadType=file', 'other address', nextIp())).statusCode).toBe(200);
  });

  it('GET /mobile/uploads/signed-url/* resolves a key like the admin route, 60 per 60 s per IP', async () => {
    const ip = nextIp();
    const key = (await upload('?uploadType=file', 'mine', ip)).json().data.relativePath;
    const first = await t.app.inject({
      method: 'GET',
      url: `/mobile/uploads/signed-url/${key}?expiresIn=120`,
      headers: customer.headers,
      remoteAddress: ip,
    });
    expect(first.statusCode).toBe(200);
    const signed = new URL(first.json().data.url);
    expect(first.json().data.expiresAt).toBe(Number(signed.searchParams.get('expires')) * 1000);
    const file = await t.app.inject({ method: 'GET', url: signed.pathname + signed.search });
    expect(file.body).toBe('mine');
    const missing = await t.app.inject({
      method: 'GET',
      url: '/mobile/uploads/signed-url/uploads/file/gone.txt',
      headers: customer.headers,
      remoteAddress: ip,
    });
    expect(missing.json().errorCode).toBe('UPLOAD_NOT_FOUND');
    for (let i = 2; i < 60; i++) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/mobile/uploads/signed-url/${key}`,
        headers: customer.headers,
        remoteAddress: ip,
      });
      expect(res.statusCode).toBe(200);
    }
    const limited = await t.app.inject({
      method: 'GET',
      url: `/mobile/uploads/signed-url/${key}`,
      headers: customer.headers,
      remoteAddress: ip,
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().errorCode).toBe('RATE_LIMITED');
  });
});
