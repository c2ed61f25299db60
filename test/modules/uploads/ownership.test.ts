// Who may sign or read a stored upload, row by row (test/helpers/ownership.ts): a customer
// only their own keys, admins with Uploads_READ any key.
import { afterAll, beforeAll, describe } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { type OwnershipContext, ownershipTests } from '../../helpers/ownership';
import { filePart, multipartBody } from './multipart';

interface StoredUpload {
  key: string;
}

describe('upload ownership', () => {
  let t: TestApp;
  let owner: SignedIn;
  let admin: SignedIn;
  let contexts: Record<'customerFile' | 'adminFile', OwnershipContext<StoredUpload>>;

  async function upload(who: SignedIn, url: string, data: string): Promise<string> {
    const body = await multipartBody([filePart(data, 'private.txt')]);
    const res = await t.app.inject({
      method: 'POST',
      url: `${url}?uploadType=file`,
      headers: { ...who.headers, ...body.headers },
      payload: body.payload,
    });
    return res.json().data.relativePath;
  }

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInCustomer(t);
    admin = await signedInAdmin(t, { permissions: ['Uploads_CREATE'] });
    const actors = {
      owner,
      /** The same customer, on a key that is not theirs. */
      customer: owner,
      uploader: admin,
      otherCustomer: await signedInCustomer(t),
      otherAdmin: await signedInAdmin(t, { permissions: ['Uploads_READ'] }),
      limitedAdmin: await signedInAdmin(t, { permissions: ['Uploads_CREATE'] }),
      anonymous: { headers: {} },
    };
    const context = (key: string): OwnershipContext<StoredUpload> => ({
      t,
      record: { key },
      actors,
      // The key's file name, and any signed URL of it.
      secrets: [key.split('/').pop()!.split('.')[0]!, 'signature='],
    });
    contexts = {
      customerFile: context(await upload(owner, '/mobile/uploads', 'the customer file')),
      adminFile: context(await upload(admin, '/upload', 'the admin file')),
    };
  });
  afterAll(() => t.close());

  const mobileSign = (r: StoredUpload) => `/mobile/uploads/signed-url/${r.key}`;
  const adminSign = (r: StoredUpload) => `/upload/signed-url/${r.key}`;
  const adminStream = (r: StoredUpload) => `/upload/file/${r.key}`;

  describe("a customer's private upload", () => {
    ownershipTests(
      () => contexts.customerFile,
      [
        { method: 'GET', url: mobileSign, as: 'owner', expect: 200 },
        { method: 'GET', url: mobileSign, as: 'otherCustomer', expect: 404, errorCode: 'UPLOAD_NOT_FOUND' },
        { method: 'GET', url: mobileSign, as: 'otherAdmin', expect: 403, errorCode: 'AUTH_FORBIDDEN' },
        { method: 'GET', url: mobileSign, as: 'anonymous', expect: 401, errorCode: 'AUTH_UNAUTHORIZED' },
        { method: 'GET', url: adminSign, as: 'otherAdmin', expect: 200, note: 'admins sign any key' },
        { method: 'GET', url: adminSign, as: 'owner', expect: 403, errorCode: 'AUTH_FORBIDDEN' },
        {
          method: 'GET',
          url: adminSign,
          as: 'limitedAdmin',
          expect: 403,
          errorCode: 'AUTH_PERMISSION_DENIED',
        },
        {
          method: 'GET',
          url: adminStream,
          as: 'limitedAdmin',
          expect: 403,
          errorCode: 'AUTH_PERMISSION_DENIED',
        },
      ],
    );
  });

  describe("an admin's private upload", () => {
    ownershipTests(
      () => contexts.adminFile,
      [
        { method: 'GET', url: adminSign, as: 'otherAdmin', expect: 200 },
        { method: 'GET', url: mobileSign, as: 'customer', expect: 404, errorCode: 'UPLOAD_NOT_FOUND' },
        { method: 'GET', url: mobileSign, as: 'otherCustomer', expect: 404, errorCode: 'UPLOAD_NOT_FOUND' },
        { method: 'GET', url: mobileSign, as: 'uploader', expect: 403, errorCode: 'AUTH_FORBIDDEN' },
        {
          method: 'GET',
          url: adminSign,
          as: 'limitedAdmin',
          expect: 403,
          errorCode: 'AUTH_PERMISSION_DENIED',
          note: 'uploading is not reading',
        },
      ],
    );
  });
});
