// The hardening items of the uploads module: who may sign a key (owners), what the image types
// accept (judged by bytes), how files are served (attachments, cross-origin policy), what an
// invalid link tells, and malformed multipart bodies.
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../../src/platform/clock';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { filePart, multipartBody, type Part } from './multipart';
import { storedKeys, tmpLeftovers } from './stored';

const HTML_PAGE = '<!DOCTYPE html><html><body><script>fetch("/x?c="+document.cookie)</script></body></html>';
const SVG_IMAGE =
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
// A one-page-less PDF whose catalog runs JavaScript when opened.
const PDF_WITH_SCRIPT = [
  '%PDF-1.4',
  '1 0 obj << /Type /Catalog /Pages 2 0 R /OpenAction 3 0 R >> endobj',
  '2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj',
  "3 0 obj << /S /JavaScript /JS (app.alert\\('owned'\\)) >> endobj",
  'trailer << /Root 1 0 R >>',
  '%%EOF',
].join('\n');

const png = () =>
  sharp({ create: { width: 12, height: 9, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer();
const jpeg = () =>
  sharp({ create: { width: 16, height: 10, channels: 3, background: '#ff6633' } })
    .jpeg()
    .toBuffer();

describe('uploads hardening', () => {
  const clock = new TestClock(new Date());
  let t: TestApp;
  let admin: SignedIn;
  let otherAdmin: SignedIn;
  let alice: SignedIn;
  let bob: SignedIn;
  let ip = 0;
  // Each request its own address: the customer per-IP limits must not interfere.
  const nextIp = () => `10.9.${Math.floor(++ip / 250)}.${ip % 250}`;

  beforeAll(async () => {
    t = await createTestApp({ clock });
    admin = await signedInAdmin(t, { permissions: ['Uploads_CREATE', 'Uploads_READ'] });
    otherAdmin = await signedInAdmin(t, { permissions: ['Uploads_READ'] });
    alice = await signedInCustomer(t);
    bob = await signedInCustomer(t);
  });
  afterAll(() => t.close());

  async function upload(who: SignedIn, parts: Part[], query = '', url?: string) {
    const body = await multipartBody(parts);
    const customer = who === alice || who === bob;
    return t.app.inject({
      method: 'POST',
      url: `${url ?? (customer ? '/mobile/uploads' : '/upload')}${query}`,
      headers: { ...who.headers, ...body.headers },
      payload: body.payload,
      remoteAddress: nextIp(),
    });
  }

  const signUrl = (who: SignedIn, key: string, query = '') =>
    t.app.inject({
      method: 'GET',
      url: `${who === alice || who === bob ? '/mobile/uploads' : '/upload'}/signed-url/${key}${query}`,
      headers: who.headers,
      remoteAddress: nextIp(),
    });

  const fetchUrl = (url: string) => {
    const u = new URL(url);
    return t.app.inject({ method: 'GET', url: u.pathname + u.search });
  };

  async function ownerRow(key: string) {
    const result = (await t.platform.database.db.execute(
      sql`select owner_actor, owner_id, upload_type from uploads where key = ${key}`,
    )) as unknown as { rows: Array<{ owner_actor: string; owner_id: string; upload_type: string }> };
    return result.rows[0];
  }

  describe('owners', () => {
    let aliceFile: string;
    let aliceAvatar: string;
    let adminFile: string;
    let unrecorded: string;

    beforeAll(async () => {
      aliceFile = (await upload(alice, [filePart('alice private notes', 'a.txt')], '?uploadType=file')).json()
        .data.relativePath;
      aliceAvatar = (await upload(alice, [filePart(await png(), 'me.png')], '?uploadType=avatar')).json().data
        .relativePath;
      adminFile = (await upload(admin, [filePart('admin contract', 'c.txt')], '?uploadType=file')).json().data
        .relativePath;
      // An object stored before owners were recorded (or by hand): it has no upload row.
      unrecorded = 'uploads/file/0190a000-0000-7000-8000-000000000001.txt';
      await t.platform.storage.put(unrecorded, Readable.from([Buffer.from('legacy')]), {
        contentType: 'text/plain',
      });
    });

    it('records every stored upload with its owner (actor and user id) and upload type', async () => {
      expect(await ownerRow(aliceFile)).toEqual({
        owner_actor: 'customer',
        owner_id: alice.userId,
        upload_type: 'file',
      });
      expect(await ownerRow(aliceAvatar)).toEqual({
        owner_actor: 'customer',
        owner_id: alice.userId,
        upload_type: 'avatar',
      });
      expect(await ownerRow(adminFile)).toEqual({
        owner_actor: 'admin',
        owner_id: admin.userId,
        upload_type: 'file',
      });
      const many = await upload(
        admin,
        [
          { field: 'files', name: '1.txt', data: 'one' },
          { field: 'files', name: '2.txt', data: 'two' },
        ],
        '?uploadType=video',
        '/upload/multiple',
      );
      for (const item of many.json().data as { relativePath: string }[]) {
        expect(await ownerRow(item.relativePath)).toMatchObject({
          owner_actor: 'admin',
          upload_type: 'video',
        });
      }
    });

    it('a customer signs their own uploads', async () => {
      const own = await signUrl(alice, aliceFile, '?expiresIn=60');
      expect(own.statusCode).toBe(200);
      expect((await fetchUrl(own.json().data.url)).body).toBe('alice private notes');
      const avatar = await signUrl(alice, aliceAvatar);
      expect(avatar.statusCode).toBe(200);
      expect(avatar.json().data.expiresAt).toBeNull();
    });

    it("a customer cannot sign another customer's, an admin's or an unrecorded key: 404 UPLOAD_NOT_FOUND", async () => {
      for (const key of [aliceFile, aliceAvatar, adminFile, unrecorded]) {
        const res = await signUrl(bob, key, '?expiresIn=604800');
        expect(res.statusCode, key).toBe(404);
        expect(res.json().errorCode).toBe('UPLOAD_NOT_FOUND');
        expect(res.json().data).toBeUndefined();
        expect(res.body).not.toContain('signature=');
      }
      // Alice neither, for the admin's file: owning some uploads grants nothing else.
      expect((await signUrl(alice, adminFile)).json().errorCode).toBe('UPLOAD_NOT_FOUND');
    });

    it('admins sign any key, recorded or not, whoever uploaded it', async () => {
      for (const key of [aliceFile, adminFile, unrecorded]) {
        const res = await signUrl(otherAdmin, key);
        expect(res.statusCode, key).toBe(200);
        expect(res.json().data.url).toContain('signature=');
      }
    });

    it('removes the stored object when recording its owner fails, and answers 500', async () => {
      const db = t.platform.database.db;
      const before = storedKeys(t);
      await db.execute(sql`alter table uploads rename to uploads_away`);
      try {
        const res = await upload(admin, [filePart('orphan?', 'o.txt')], '?uploadType=file');
        expect(res.statusCode).toBe(500);
        expect(res.json().errorCode).toBe('INTERNAL_ERROR');
        const many = await upload(alice, [filePart(await png(), 'x.png')], '?uploadType=image');
        expect(many.statusCode).toBe(500);
      } finally {
        await db.execute(sql`alter table uploads_away rename to uploads`);
      }
      expect(storedKeys(t)).toEqual(before);
      expect(tmpLeftovers(t)).toEqual([]);
    });

    it('an expired or wrong link answers 403 UPLOAD_URL_INVALID without repeating the key anywhere', async () => {
      const signed = (await signUrl(alice, aliceFile, '?expiresIn=60')).json().data;
      const filename = aliceFile.split('/').pop()!;
      const uuid = filename.split('.')[0]!;
      const u = new URL(signed.url);
      const tampered = signed.url.replace(
        /signature=([0-9a-f])/,
        (_m: string, c: string) => `signature=${c === '0' ? '1' : '0'}`,
      );
      const unsigned = `${u.origin}${u.pathname}`;
      clock.advance(61_000);
      try {
        for (const url of [signed.url, tampered, unsigned]) {
          const res = await fetchUrl(url);
          expect(res.statusCode).toBe(403);
          const body = res.json();
          expect(body.errorCode).toBe('UPLOAD_URL_INVALID');
          expect(body.path).toBe('/files/*');
          expect(res.body).not.toContain(uuid);
          expect(res.body).not.toContain('uploads/file');
        }
      } finally {
        clock.advance(-61_000);
      }
      // Other /files errors do not repeat the key either.
      const missing = await t.app.inject({ method: 'GET', url: '/files/public/avatar/secret-name.webp' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ errorCode: 'UPLOAD_NOT_FOUND', path: '/files/*' });
      expect(missing.body).not.toContain('secret-name');
    });
  });

  describe('image types', () => {
    const imageRoutes: Array<[SignedIn | (() => SignedIn), string, string]> = [
      [() => alice, 'avatar', ''],
      [() => alice, 'image', ''],
      [() => admin, 'avatar', ''],
      [() => admin, 'image', ''],
      [() => admin, 'landing', ''],
      [() => admin, 'thumbnail', ''],
      [() => admin, 'avatar', '&optimize=false'],
      [() => admin, 'image', '/multiple'],
    ];

    it('refuses an HTML page, a PDF with a script, an SVG and text as an image type: 400 UPLOAD_TYPE_NOT_ALLOWED', async () => {
      const before = storedKeys(t);
      for (const [who, type, extra] of imageRoutes) {
        const signedIn = typeof who === 'function' ? who() : who;
        for (const [data, name, claimed] of [
          [HTML_PAGE, 'avatar.png', 'image/png'],
          [PDF_WITH_SCRIPT, 'avatar.jpg', 'image/jpeg'],
          [SVG_IMAGE, 'avatar.svg', 'image/svg+xml'],
          ['just text', 'a.gif', 'image/gif'],
        ] as const) {
          const multiple = extra === '/multiple';
          const res = await upload(
            signedIn,
            [{ field: multiple ? 'files' : 'file', name, data, type: claimed }],
            `?uploadType=${type}${multiple ? '' : extra}`,
            multiple ? '/upload/multiple' : undefined,
          );
          expect(res.statusCode, `${type}${extra} ${name}`).toBe(400);
          expect(res.json().errorCode).toBe('UPLOAD_TYPE_NOT_ALLOWED');
        }
      }
      expect(storedKeys(t)).toEqual(before);
      expect(tmpLeftovers(t)).toEqual([]);
    });

    it('accepts real PNG and JPEG images as avatars, judged by their bytes whatever their name', async () => {
      for (const [bytes, name] of [
        [await png(), 'face.bin'],
        [await jpeg(), 'face.txt'],
      ] as const) {
        const res = await upload(
          alice,
          [filePart(bytes, name, 'application/octet-stream')],
          '?uploadType=avatar',
        );
        expect(res.statusCode, name).toBe(200);
        expect(res.json().data).toMatchObject({ mimeType: 'image/webp' });
        const kept = await upload(admin, [filePart(bytes, name)], '?uploadType=thumbnail&optimize=false');
        expect(kept.statusCode).toBe(200);
        expect(kept.json().data.mimeType).toBe(name === 'face.bin' ? 'image/png' : 'image/jpeg');
      }
    });

    it('accepts GIF, WebP, AVIF and HEIC, and any file as `file` or `video`', async () => {
      const gif = await sharp({ create: { width: 5, height: 5, channels: 3, background: '#000' } })
        .gif()
        .toBuffer();
      const webp = await sharp({ create: { width: 5, height: 5, channels: 3, background: '#fff' } })
        .webp()
        .toBuffer();
      const avif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0f0' } })
        .avif()
        .toBuffer();
      for (const bytes of [gif, webp, avif]) {
        expect((await upload(admin, [filePart(bytes, 'x')], '?uploadType=landing')).statusCode).toBe(200);
      }
      // A HEIC header (ISO-BMFF `ftyp` box, brand heic): accepted by its bytes; sharp has no HEVC
      // decoder here, so it is kept as sent, with its detected type.
      const heic = Buffer.concat([
        Buffer.from([0, 0, 0, 0x18]),
        Buffer.from('ftypheic'),
        Buffer.from([0, 0, 0, 0]),
        Buffer.from('mif1heic'),
        Buffer.alloc(64),
      ]);
      const heicRes = await upload(alice, [filePart(heic, 'IMG_0001.HEIC')], '?uploadType=avatar');
      expect(heicRes.statusCode).toBe(200);
      expect(heicRes.json().data.mimeType).toBe('image/heic');
      for (const type of ['file', 'video']) {
        for (const data of [HTML_PAGE, PDF_WITH_SCRIPT, SVG_IMAGE]) {
          const res = await upload(admin, [filePart(data, 'doc')], `?uploadType=${type}`);
          expect(res.statusCode, type).toBe(200);
        }
      }
      const pdf = await upload(alice, [filePart(PDF_WITH_SCRIPT, 'scan.pdf')], '?uploadType=file');
      expect(pdf.json().data.mimeType).toBe('application/pdf');
    });
  });

  describe('serving', () => {
    async function served(data: string, name: string) {
      const res = await upload(alice, [filePart(data, name, 'text/plain')], '?uploadType=file');
      expect(res.statusCode).toBe(200);
      const { relativePath, url, mimeType } = res.json().data;
      return { relativePath, mimeType, file: await fetchUrl(url) };
    }

    it('serves an HTML file as an attachment with a safe type and nosniff, through /files and /upload/file', async () => {
      const { relativePath, mimeType, file } = await served(HTML_PAGE, 'page.html');
      expect(mimeType).toBe('text/html');
      expect(relativePath).toMatch(/\.html$/);
      const streamed = await t.app.inject({
        method: 'GET',
        url: `/upload/file/${relativePath}`,
        headers: otherAdmin.headers,
      });
      for (const res of [file, streamed]) {
        expect(res.statusCode).toBe(200);
        expect(res.body).toBe(HTML_PAGE);
        expect(res.headers['content-disposition']).toBe(
          `attachment; filename="${relativePath.split('/').pop()}"`,
        );
        expect(res.headers['content-type']).toBe('application/octet-stream');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['content-security-policy']).toContain('sandbox');
      }
    });

    it('recognises HTML by its bytes whatever its name, and SVG and XML too', async () => {
      for (const [data, name, type] of [
        [HTML_PAGE, 'notes.txt', 'text/html'],
        ['  <html><p>hi</p></html>', 'x', 'text/html'],
        [SVG_IMAGE, 'logo.svg', 'image/svg+xml'],
        ['<svg xmlns="http://www.w3.org/2000/svg"/>', 'logo', 'image/svg+xml'],
        ['<?xml version="1.0"?><a/>', 'data', 'application/xml'],
        ['plain words <b>', 'page.htm', 'text/html'],
      ] as const) {
        const { mimeType, file } = await served(data, name);
        expect(mimeType, name).toBe(type);
        expect(file.headers['content-disposition'], name).toMatch(/^attachment; /);
        expect(file.headers['content-type']).toBe('application/octet-stream');
      }
    });

    it('serves images and plain text in place, other files (PDF) as attachments with their own type', async () => {
      const text = await served('a,b\n1,2\n', 'table.csv');
      expect(text.file.headers['content-disposition']).toMatch(/^inline; /);
      expect(text.file.headers['content-type']).toMatch(/^text\/plain/);
      const pdf = await served(PDF_WITH_SCRIPT, 'scan.pdf');
      expect(pdf.file.headers['content-disposition']).toMatch(/^attachment; /);
      expect(pdf.file.headers['content-type']).toBe('application/pdf');
      const image = await upload(alice, [filePart(await png(), 'p.png')], '?uploadType=image');
      const imageFile = await fetchUrl(image.json().data.url);
      expect(imageFile.headers['content-disposition']).toMatch(/^inline; /);
      expect(imageFile.headers['content-type']).toBe('image/webp');
    });

    it('public files carry Cross-Origin-Resource-Policy: cross-origin, private ones same-origin', async () => {
      const avatar = await upload(alice, [filePart(await png(), 'me.png')], '?uploadType=avatar');
      const publicFile = await fetchUrl(avatar.json().data.url);
      expect(publicFile.statusCode).toBe(200);
      expect(publicFile.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(publicFile.headers['cache-control']).toBe('public, max-age=31536000, immutable');

      const image = await upload(alice, [filePart(await png(), 'p.png')], '?uploadType=image');
      const privateFile = await fetchUrl(image.json().data.url);
      expect(privateFile.statusCode).toBe(200);
      expect(privateFile.headers['cross-origin-resource-policy']).toBe('same-origin');
      const streamed = await t.app.inject({
        method: 'GET',
        url: `/upload/file/${avatar.json().data.relativePath}`,
        headers: otherAdmin.headers,
      });
      expect(streamed.headers['cross-origin-resource-policy']).toBe('same-origin');
    });
  });

  describe('malformed multipart bodies: 400 VALIDATION_ERROR, nothing stored', () => {
    const B = 'pasal-boundary-42';
    const head = (field: string) =>
      `--${B}\r\nContent-Disposition: form-data; name="${field}"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n`;
    const bodies: Array<[string, (field: string) => string, string?]> = [
      ['no closing boundary', (f) => `${head(f)}hello`],
      ['no closing boundary after a line break', (f) => `${head(f)}hello\r\n`],
      [
        'part headers cut off',
        (f) => `--${B}\r\nContent-Disposition: form-data; name="${f}"; filename="a.txt"`,
      ],
      ['a boundary that never appears', (f) => `${head(f)}hello\r\n--${B}--\r\n`, 'other-boundary'],
      ['no boundary parameter', (f) => `${head(f)}hello\r\n--${B}--\r\n`, ''],
      ['no part at all', () => 'complete garbage'],
      [
        'a field after the file cut off',
        (f) => `${head(f)}one\r\n--${B}\r\nContent-Disposition: form-data; name="note"\r\n\r\ntw`,
      ],
    ];
    const routes: Array<[string, string, () => SignedIn]> = [
      ['/upload?uploadType=file', 'file', () => admin],
      ['/upload/multiple?uploadType=file', 'files', () => admin],
      ['/mobile/uploads?uploadType=file', 'file', () => alice],
    ];

    for (const [name, body, boundary] of bodies) {
      it(name, async () => {
        const before = storedKeys(t);
        for (const [url, field, who] of routes) {
          const contentType =
            boundary === '' ? 'multipart/form-data' : `multipart/form-data; boundary=${boundary ?? B}`;
          const res = await t.app.inject({
            method: 'POST',
            url,
            headers: { ...who().headers, 'content-type': contentType },
            payload: body(field),
            remoteAddress: nextIp(),
          });
          expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
          expect(res.json().errorCode).toBe('VALIDATION_ERROR');
          expect(res.json().details).toEqual([expect.objectContaining({ location: 'body' })]);
        }
        expect(storedKeys(t)).toEqual(before);
        expect(tmpLeftovers(t)).toEqual([]);
      });
    }

    it('a well-formed hand-built body is stored (the bodies above differ only in what is broken)', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/upload?uploadType=file',
        headers: { ...admin.headers, 'content-type': `multipart/form-data; boundary=${B}` },
        payload: `${head('file')}hello\r\n--${B}--\r\n`,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ originalName: 'a.txt', size: 5 });
    });
  });
});
