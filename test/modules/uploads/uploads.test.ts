import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TestClock } from '../../../src/platform/clock';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { filePart, multipartBody, type Part } from './multipart';
import { storedKeys, tmpLeftovers } from './stored';

const UUID_V7 = '[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';
const MAX_DIMENSION = 64;

const tinyPng = () =>
  sharp({ create: { width: 3, height: 2, channels: 3, background: '#808080' } })
    .png()
    .toBuffer();

async function jpegWithOrientation(width: number, height: number, orientation: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .jpeg()
    .withMetadata({ orientation })
    .toBuffer();
}

describe('admin uploads', () => {
  const clock = new TestClock(new Date());
  let t: TestApp;
  let admin: SignedIn;
  let reader: SignedIn;

  beforeAll(async () => {
    t = await createTestApp({
      clock,
      env: { UPLOAD_MAX_FILE_SIZE_MB: '1', UPLOAD_IMAGE_MAX_DIMENSION: String(MAX_DIMENSION) },
    });
    admin = await signedInAdmin(t, { permissions: ['Uploads_CREATE', 'Uploads_READ'] });
    reader = await signedInAdmin(t, { permissions: ['Uploads_READ'] });
  });
  afterAll(() => t.close());

  async function upload(parts: Part[], query = '', who: SignedIn = admin, url = '/upload') {
    const body = await multipartBody(parts);
    return t.app.inject({
      method: 'POST',
      url: `${url}${query}`,
      headers: { ...who.headers, ...body.headers },
      payload: body.payload,
    });
  }

  async function readStored(key: string) {
    const object = await t.platform.storage.get(key);
    expect(object).not.toBeNull();
    return { ...object!, bytes: await buffer(object!.body) };
  }

  it('converts a JPEG to WebP: EXIF orientation applied, dimensions capped, metadata stripped', async () => {
    // 200x100 stored sideways (orientation 6 = rotate 90°): upright it is 100x200.
    const jpeg = await jpegWithOrientation(200, 100, 6);
    const res = await upload([filePart(jpeg, 'photo.jpg', 'image/jpeg')]);
    expect(res.statusCode).toBe(200);
    const { data, message } = res.json();
    expect(message).toBeTypeOf('string');
    expect(data).toMatchObject({ originalName: 'photo.jpg', mimeType: 'image/webp' });
    expect(data.filename).toMatch(new RegExp(`^${UUID_V7}\\.webp$`));
    expect(data.relativePath).toBe(`uploads/image/${data.filename}`);

    const stored = await readStored(data.relativePath);
    expect(stored.bytes.subarray(0, 4).toString()).toBe('RIFF');
    expect(stored.bytes.subarray(8, 12).toString()).toBe('WEBP');
    expect(stored.contentType).toBe('image/webp');
    expect(data.size).toBe(stored.bytes.length);
    const meta = await sharp(stored.bytes).metadata();
    expect(meta.format).toBe('webp');
    expect([meta.width, meta.height]).toEqual([MAX_DIMENSION / 2, MAX_DIMENSION]);
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
  });

  it('converts PNG and GIF too, and never enlarges a small image', async () => {
    const png = await sharp({ create: { width: 10, height: 8, channels: 4, background: '#00ff0080' } })
      .png()
      .toBuffer();
    const gif = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#0000ff' } })
      .gif()
      .toBuffer();
    for (const [bytes, name] of [
      [png, 'small.png'],
      [gif, 'anim.gif'],
    ] as const) {
      const res = await upload([filePart(bytes, name, 'application/octet-stream')]);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.mimeType).toBe('image/webp');
      const meta = await sharp((await readStored(res.json().data.relativePath)).bytes).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.width).toBe(name === 'small.png' ? 10 : 20);
    }
  });

  it('optimize=false stores an image as sent, its type read from the bytes', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const res = await upload([filePart(png, 'raw.png', 'text/plain')], '?optimize=false');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ mimeType: 'image/png', size: png.length });
    expect(res.json().data.filename).toMatch(/\.png$/);
    expect((await readStored(res.json().data.relativePath)).bytes.equals(png)).toBe(true);
  });

  it('stores a text file as it is, with its type from the bytes rather than the header', async () => {
    const text = 'name,price\nphone,1000\n';
    const res = await upload([filePart(text, 'prices.csv', 'image/png')], '?uploadType=file');
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({ mimeType: 'text/plain', size: text.length, originalName: 'prices.csv' });
    expect(data.relativePath).toMatch(new RegExp(`^uploads/file/${UUID_V7}\\.csv$`));
    const stored = await readStored(data.relativePath);
    expect(stored.bytes.toString()).toBe(text);
    expect(stored.contentType).toBe('text/plain');
  });

  it('stores a binary of unknown format as application/octet-stream', async () => {
    const blob = Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0, 9]);
    const res = await upload([filePart(blob, 'blob', 'image/jpeg')], '?uploadType=file');
    expect(res.json().data).toMatchObject({ mimeType: 'application/octet-stream', size: 8 });
    expect(res.json().data.filename).toMatch(/\.bin$/);
  });

  it('puts each upload type under its prefix: public types get a permanent URL', async () => {
    const base = t.platform.config.PUBLIC_BASE_URL;
    const png = await tinyPng();
    for (const type of ['avatar', 'landing', 'thumbnail'] as const) {
      const res = await upload([filePart(png, 'a.png')], `?uploadType=${type}&optimize=false`);
      expect(res.statusCode).toBe(200);
      const { data } = res.json();
      expect(data.relativePath).toBe(`public/${type}/${data.filename}`);
      expect(data.url).toBe(`${base}/files/${data.relativePath}`);
      expect(data.expiresAt).toBeNull();
      const file = await t.app.inject({ method: 'GET', url: new URL(data.url).pathname });
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(png)).toBe(true);
    }
    for (const type of ['image', 'file', 'video'] as const) {
      const res = await upload([filePart(png, 'a.png')], `?uploadType=${type}`);
      const { data } = res.json();
      expect(data.relativePath).toBe(`uploads/${type}/${data.filename}`);
      expect(data.url).toMatch(/\?expires=\d+&signature=[0-9a-f]{64}$/);
      expect(data.expiresAt).toBe(Math.floor(clock.now().getTime() / 1000) * 1000 + 7200_000);
    }
  });

  it('defaults uploadType to image (so a text file without uploadType is refused)', async () => {
    const res = await upload([filePart(await tinyPng(), 'a.png')]);
    expect(res.json().data.relativePath).toMatch(/^uploads\/image\//);
    const text = await upload([filePart('hi', 'a.txt')]);
    expect(text.statusCode).toBe(400);
    expect(text.json().errorCode).toBe('UPLOAD_TYPE_NOT_ALLOWED');
  });

  it('refuses an unknown uploadType (400 UPLOAD_TYPE_INVALID) and a bad optimize (400 VALIDATION_ERROR)', async () => {
    const bad = await upload([filePart('hi')], '?uploadType=document');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errorCode).toBe('UPLOAD_TYPE_INVALID');
    const opt = await upload([filePart('hi')], '?optimize=maybe');
    expect(opt.statusCode).toBe(400);
    expect(opt.json().errorCode).toBe('VALIDATION_ERROR');
  });

  it('answers 400 UPLOAD_FILE_REQUIRED without a file, with a file in another field, or without multipart', async () => {
    const before = storedKeys(t).length;
    const empty = await upload([]);
    const wrongField = await upload([{ field: 'upload', name: 'a.txt', data: 'x' }]);
    const json = await t.app.inject({
      method: 'POST',
      url: '/upload',
      headers: admin.headers,
      payload: { a: 1 },
    });
    const none = await t.app.inject({ method: 'POST', url: '/upload', headers: admin.headers });
    const multipleWrong = await upload([filePart('x')], '', admin, '/upload/multiple');
    for (const res of [empty, wrongField, json, none, multipleWrong]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().errorCode).toBe('UPLOAD_FILE_REQUIRED');
    }
    expect(storedKeys(t).length).toBe(before);
  });

  it('refuses a second file on the single route (400 UPLOAD_TOO_MANY_FILES) and stores neither', async () => {
    const before = storedKeys(t).length;
    const res = await upload([filePart('one', '1.txt'), filePart('two', '2.txt')], '?uploadType=file');
    expect(res.statusCode).toBe(400);
    expect(res.json().errorCode).toBe('UPLOAD_TOO_MANY_FILES');
    expect(storedKeys(t).length).toBe(before);
  });

  it('POST /upload/multiple stores 1 to 10 files and answers an array of results', async () => {
    const parts = Array.from({ length: 10 }, (_, i) => ({
      field: 'files',
      name: `f${i}.txt`,
      data: `file ${i}`,
    }));
    const res = await upload(parts, '?uploadType=file', admin, '/upload/multiple');
    expect(res.statusCode).toBe(200);
    const data = res.json().data as { originalName: string; relativePath: string; size: number }[];
    expect(data.map((d) => d.originalName)).toEqual(parts.map((p) => p.name));
    expect(new Set(data.map((d) => d.relativePath)).size).toBe(10);
    for (const [i, d] of data.entries()) {
      expect((await readStored(d.relativePath)).bytes.toString()).toBe(`file ${i}`);
    }
  });

  it('refuses 11 files with 400 UPLOAD_TOO_MANY_FILES and stores none of them', async () => {
    const before = storedKeys(t).length;
    const parts = Array.from({ length: 11 }, (_, i) => ({
      field: 'files',
      name: `f${i}.txt`,
      data: `file ${i}`,
    }));
    const res = await upload(parts, '?uploadType=file', admin, '/upload/multiple');
    expect(res.statusCode).toBe(400);
    expect(res.json().errorCode).toBe('UPLOAD_TOO_MANY_FILES');
    expect(storedKeys(t).length).toBe(before);
    expect(tmpLeftovers(t)).toEqual([]);
  });

  it('refuses a file over UPLOAD_MAX_FILE_SIZE_MB with 413 and stores nothing', async () => {
    const before = storedKeys(t).length;
    const big = Buffer.alloc(1_048_576 + 1, 'a');
    const res = await upload([filePart(big, 'big.txt')], '?uploadType=file');
    expect(res.statusCode).toBe(413);
    expect(res.json().errorCode).toBe('UPLOAD_FILE_TOO_LARGE');
    const inBatch = await upload(
      [
        { field: 'files', name: 'ok.txt', data: 'fine' },
        { field: 'files', name: 'big.txt', data: big },
      ],
      '?uploadType=file',
      admin,
      '/upload/multiple',
    );
    expect(inBatch.statusCode).toBe(413);
    expect(storedKeys(t).length).toBe(before);
    expect(tmpLeftovers(t)).toEqual([]);
    const exact = await upload([filePart(Buffer.alloc(1_048_576, 'a'), 'exact.txt')], '?uploadType=file');
    expect(exact.statusCode).toBe(200);
  });

  it('answers 502 UPLOAD_STORAGE_FAILED when storage refuses, and removes what was stored before', async () => {
    const before = storedKeys(t).length;
    const put = t.platform.storage.put.bind(t.platform.storage);
    const spy = vi
      .spyOn(t.platform.storage, 'put')
      .mockImplementationOnce(put)
      .mockRejectedValueOnce(new Error('bucket unreachable'));
    try {
      const res = await upload(
        [
          { field: 'files', name: 'a.txt', data: 'a' },
          { field: 'files', name: 'b.txt', data: 'b' },
        ],
        '?uploadType=file',
        admin,
        '/upload/multiple',
      );
      expect(res.statusCode).toBe(502);
      expect(res.json().errorCode).toBe('UPLOAD_STORAGE_FAILED');
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
    expect(storedKeys(t).length).toBe(before);
  });

  describe('URLs and streaming', () => {
    let privateKey: string;
    let publicKey: string;
    beforeAll(async () => {
      privateKey = (await upload([filePart('private bytes', 'p.txt')], '?uploadType=file')).json().data
        .relativePath;
      publicKey = (await upload([filePart(await tinyPng(), 'q.png')], '?uploadType=avatar')).json().data
        .relativePath;
    });

    const get = (url: string, who?: SignedIn) => t.app.inject({ method: 'GET', url, headers: who?.headers });

    it('GET /upload/signed-url/* signs a private key for 7200 s by default, or expiresIn', async () => {
      const res = await get(`/upload/signed-url/${privateKey}`, reader);
      expect(res.statusCode).toBe(200);
      const nowS = Math.floor(clock.now().getTime() / 1000);
      expect(res.json().data.expiresAt).toBe((nowS + 7200) * 1000);
      const short = await get(`/upload/signed-url/${privateKey}?expiresIn=60`, reader);
      expect(short.json().data.expiresAt).toBe((nowS + 60) * 1000);
      const file = await get(new URL(short.json().data.url).pathname + new URL(short.json().data.url).search);
      expect(file.statusCode).toBe(200);
      expect(file.body).toBe('private bytes');
      expect(file.headers['content-type']).toMatch(/^text\/plain/);
      const max = await get(`/upload/signed-url/${privateKey}?expiresIn=604800`, reader);
      expect(max.statusCode).toBe(200);
    });

    it('refuses an expired or tampered signed URL with 403 UPLOAD_URL_INVALID', async () => {
      const signed = (await get(`/upload/signed-url/${privateKey}?expiresIn=60`, reader)).json().data;
      const url = new URL(signed.url);
      const local = url.pathname + url.search;
      expect((await get(local)).statusCode).toBe(200);

      const tampered = local.replace(/signature=([0-9a-f])/, (_m, c) => `signature=${c === '0' ? '1' : '0'}`);
      const bad = await get(tampered);
      expect(bad.statusCode).toBe(403);
      expect(bad.json().errorCode).toBe('UPLOAD_URL_INVALID');
      const later = local.replace(/expires=(\d+)/, (_m, e) => `expires=${Number(e) + 3600}`);
      expect((await get(later)).json().errorCode).toBe('UPLOAD_URL_INVALID');
      expect((await get(url.pathname)).json().errorCode).toBe('UPLOAD_URL_INVALID');

      clock.advance(61_000);
      try {
        const expired = await get(local);
        expect(expired.statusCode).toBe(403);
        expect(expired.json().errorCode).toBe('UPLOAD_URL_INVALID');
      } finally {
        clock.advance(-61_000);
      }
    });

    it('answers a permanent URL for a public key, and 404 UPLOAD_NOT_FOUND for a missing one', async () => {
      const res = await get(`/upload/signed-url/${publicKey}?expiresIn=60`, reader);
      expect(res.json().data).toEqual({
        url: `${t.platform.config.PUBLIC_BASE_URL}/files/${publicKey}`,
        expiresAt: null,
      });
      const missing = await get('/upload/signed-url/uploads/image/nothing-here.webp', reader);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().errorCode).toBe('UPLOAD_NOT_FOUND');
      const missingFile = await get('/files/public/avatar/nothing-here.webp');
      expect(missingFile.json().errorCode).toBe('UPLOAD_NOT_FOUND');
    });

    it('checks expiresIn: 1 to 604800 seconds, else 400 VALIDATION_ERROR', async () => {
      for (const value of ['0', '604801', 'abc', '-5', '1.5']) {
        const res = await get(`/upload/signed-url/${privateKey}?expiresIn=${value}`, reader);
        expect(res.statusCode, value).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
      for (const expiresIn of [0, 604_801, 'x']) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/upload/signed-urls',
          headers: reader.headers,
          payload: { keys: [privateKey], expiresIn },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
    });

    it('POST /upload/signed-urls maps every key to its URL', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/upload/signed-urls',
        headers: reader.headers,
        payload: { keys: [privateKey, publicKey], expiresIn: 300 },
      });
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(Object.keys(data).sort()).toEqual([privateKey, publicKey].sort());
      expect(data[privateKey].expiresAt).toBe((Math.floor(clock.now().getTime() / 1000) + 300) * 1000);
      expect(data[publicKey]).toEqual({
        url: `${t.platform.config.PUBLIC_BASE_URL}/files/${publicKey}`,
        expiresAt: null,
      });
      const empty = await t.app.inject({
        method: 'POST',
        url: '/upload/signed-urls',
        headers: reader.headers,
        payload: { keys: [] },
      });
      expect(empty.json().errorCode).toBe('VALIDATION_ERROR');
    });

    it('GET /upload/file/* streams the file with its type and Cache-Control: private, max-age=3600', async () => {
      const res = await get(`/upload/file/${privateKey}`, reader);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('private bytes');
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.headers['cache-control']).toBe('private, max-age=3600');
      expect(res.headers['content-length']).toBe(String('private bytes'.length));
      const missing = await get('/upload/file/uploads/file/missing.txt', reader);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().errorCode).toBe('UPLOAD_NOT_FOUND');
    });

    it('refuses traversal and foreign keys on every key route with 400 UPLOAD_KEY_INVALID', async () => {
      const customer = await signedInCustomer(t);
      const keys = [
        'uploads/%2e%2e/%2e%2e/etc/passwd',
        '%2e%2e/uploads/image/x.webp',
        'uploads/image/..%2f..%2fsecrets.json',
        'uploads%5C..%5C..%5Cwindows',
        'uploads/image/%252e%252e/x',
        '%2Fetc%2Fpasswd',
        'etc/passwd',
        'secrets.json',
        'uploads/.meta/x.json',
      ];
      const routes: [string, SignedIn | undefined][] = [
        ['/upload/signed-url/', reader],
        ['/upload/file/', reader],
        ['/mobile/uploads/signed-url/', customer],
        ['/files/', undefined],
      ];
      for (const [route, who] of routes) {
        for (const key of keys) {
          const res = await get(`${route}${key}`, who);
          // URL parsing turns a whole `%2e%2e` segment into `..` and resolves it before
          // routing, so those requests miss the route (404) instead: no file either way.
          const resolvedByUrl = /(^|\/)%2e%2e\//i.test(key);
          expect(res.statusCode, `${route}${key}`).toBe(resolvedByUrl ? 404 : 400);
          expect(res.json().errorCode).toBe(resolvedByUrl ? 'ROUTE_NOT_FOUND' : 'UPLOAD_KEY_INVALID');
        }
      }
      for (const key of ['../etc/passwd', 'uploads/../../x', '/etc/passwd', 'uploads\\..\\x', 'other/x']) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/upload/signed-urls',
          headers: reader.headers,
          payload: { keys: [privateKey, key] },
        });
        expect(res.statusCode, key).toBe(400);
        expect(res.json().errorCode).toBe('UPLOAD_KEY_INVALID');
      }
    });
  });

  it('checks access: no token 401, customer 403, Uploads_CREATE to upload, Uploads_READ to read', async () => {
    const none = await t.app.inject({ method: 'POST', url: '/upload' });
    expect(none.statusCode).toBe(401);
    expect(none.json().errorCode).toBe('AUTH_UNAUTHORIZED');
    const customer = await signedInCustomer(t);
    const asCustomer = await upload([filePart('x')], '', customer);
    expect(asCustomer.statusCode).toBe(403);
    expect(asCustomer.json().errorCode).toBe('AUTH_FORBIDDEN');
    const readOnly = await upload([filePart('x')], '', reader);
    expect(readOnly.json().errorCode).toBe('AUTH_PERMISSION_DENIED');
    const readOnlyMany = await upload([filePart('x')], '', reader, '/upload/multiple');
    expect(readOnlyMany.json().errorCode).toBe('AUTH_PERMISSION_DENIED');
    const writer = await signedInAdmin(t, { permissions: ['Uploads_CREATE'] });
    for (const url of ['/upload/signed-url/uploads/image/x.webp', '/upload/file/uploads/image/x.webp']) {
      const res = await t.app.inject({ method: 'GET', url, headers: writer.headers });
      expect(res.statusCode).toBe(403);
      expect(res.json().errorCode).toBe('AUTH_PERMISSION_DENIED');
    }
    const batch = await t.app.inject({
      method: 'POST',
      url: '/upload/signed-urls',
      headers: writer.headers,
      payload: { keys: ['uploads/image/x.webp'] },
    });
    expect(batch.json().errorCode).toBe('AUTH_PERMISSION_DENIED');
  });

  it('lists the Uploads permission codes in the catalogue', async () => {
    const { permissionCatalog } = await import('../../../src/app');
    expect(permissionCatalog).toContainEqual({
      module: 'Uploads',
      codes: ['Uploads_READ', 'Uploads_CREATE'],
    });
  });
});
