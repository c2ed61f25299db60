// The whole upload path on the S3 driver, against a real s3rver.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin } from '../../helpers/factories';
import { filePart, multipartBody } from './multipart';
import { startS3, type TestS3 } from './s3-server';

describe('uploads on S3', () => {
  let s3: TestS3;
  let t: TestApp;
  let admin: SignedIn;
  beforeAll(async () => {
    s3 = await startS3();
    t = await createTestApp({ env: s3.env });
    admin = await signedInAdmin(t, { permissions: ['Uploads_CREATE', 'Uploads_READ'] });
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  async function upload(data: Buffer | string, query = '') {
    const body = await multipartBody([filePart(data, 'pic.png')]);
    return t.app.inject({
      method: 'POST',
      url: `/upload${query}`,
      headers: { ...admin.headers, ...body.headers },
      payload: body.payload,
    });
  }

  it('stores a converted image in the bucket and signs a presigned URL that reads it', async () => {
    expect(t.platform.storage.driver).toBe('s3');
    const png = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    const res = await upload(png);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.mimeType).toBe('image/webp');
    expect(data.url).toContain(`${s3.endpoint}/${s3.bucket}/${data.relativePath}?`);
    expect(data.url).toContain('X-Amz-Signature=');
    const fetched = await fetch(data.url);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-type')).toBe('image/webp');
    const bytes = Buffer.from(await fetched.arrayBuffer());
    expect(bytes.length).toBe(data.size);
    expect((await sharp(bytes).metadata()).format).toBe('webp');

    const streamed = await t.app.inject({
      method: 'GET',
      url: `/upload/file/${data.relativePath}`,
      headers: admin.headers,
    });
    expect(streamed.statusCode).toBe(200);
    expect(streamed.rawPayload.equals(bytes)).toBe(true);
    expect(streamed.headers['cache-control']).toBe('private, max-age=3600');
  });

  it('gives public keys the bucket URL, and answers 404 for a missing key', async () => {
    const png = await sharp({ create: { width: 3, height: 3, channels: 3, background: '#00ff00' } })
      .png()
      .toBuffer();
    const res = await upload(png, '?uploadType=thumbnail&optimize=false');
    const { data } = res.json();
    expect(data).toMatchObject({ expiresAt: null, url: `${s3.endpoint}/${s3.bucket}/${data.relativePath}` });
    expect(Buffer.from(await (await fetch(data.url)).arrayBuffer()).equals(png)).toBe(true);
    const missing = await t.app.inject({
      method: 'GET',
      url: '/upload/signed-url/uploads/image/missing.webp',
      headers: admin.headers,
    });
    expect(missing.json().errorCode).toBe('UPLOAD_NOT_FOUND');
  });

  it('stores HTML as a download: presigned reads answer it as an attachment of plain bytes', async () => {
    const page = '<!doctype html><html><script>alert(document.domain)</script></html>';
    const res = await upload(page, '?uploadType=file');
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.mimeType).toBe('text/html');
    const fetched = await fetch(data.url);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-disposition')).toBe(`attachment; filename="${data.filename}"`);
    expect(fetched.headers.get('content-type')).toBe('application/octet-stream');
    expect(await fetched.text()).toBe(page);
  });
});
