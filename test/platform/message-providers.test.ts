// The SMS and push adapters against local fakes of Sparrow SMS, Aakash SMS and FCM: what is
// sent (fields, number form, UTF-8 text, auth), and how each answer is read: delivered, worth
// another try (ProviderUnavailable) or refused for good (ProviderRefusal, PushTokenRejected).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderRefusal, ProviderUnavailable } from '../../src/platform/delivery/provider-http';
import { createFcmPush } from '../../src/platform/push/fcm';
import { PushTokenRejected } from '../../src/platform/push/push';
import { readServiceAccount } from '../../src/platform/push/service-account';
import { createAakashSms } from '../../src/platform/sms/aakash';
import { isNepaliMobile, nationalMobileNumber } from '../../src/platform/sms/nepal-mobile';
import { createSparrowSms } from '../../src/platform/sms/sparrow';
import {
  AAKASH_TOKEN,
  fcmError,
  SPARROW_FROM,
  SPARROW_TOKEN,
  sparrowRefusal,
  startFakeAakash,
  startFakeFcm,
  startFakeSparrow,
} from '../helpers/message-providers';

const NEPALI = '+9779812345678';
const DEVANAGARI = 'पसल: तपाईंको प्रमाणीकरण कोड 123456 हो।';

describe('Nepali mobile numbers', () => {
  it.each([
    ['+9779812345678', true],
    ['+9779741234567', true],
    ['+9779612345678', true],
    ['+97714223344', false], // a Kathmandu landline
    ['+9778812345678', false],
    ['+97798123456789', false],
    ['+919812345678', false],
    ['9812345678', false],
  ])('%s is a Nepali mobile: %s', (phone, expected) => {
    expect(isNepaliMobile(phone)).toBe(expected);
  });

  it('is sent to the providers as the bare ten digits', () => {
    expect(nationalMobileNumber('+9779812345678')).toBe('9812345678');
    expect(() => nationalMobileNumber('+14155550100')).toThrow();
  });
});

describe('Sparrow SMS adapter', () => {
  let fake: Awaited<ReturnType<typeof startFakeSparrow>>;
  beforeAll(async () => {
    fake = await startFakeSparrow();
  });
  afterAll(() => fake.close());
  const sparrow = (over: { token?: string; timeoutMs?: number } = {}) =>
    createSparrowSms({
      token: SPARROW_TOKEN,
      from: SPARROW_FROM,
      url: fake.sendUrl,
      timeoutMs: 2000,
      ...over,
    });

  it('posts token, from, the 10-digit number and the UTF-8 text as a form', async () => {
    const before = fake.received.length;
    await sparrow().send({ to: NEPALI, text: DEVANAGARI });
    const [req] = fake.received.slice(before);
    expect(req!.headers['content-type']).toBe('application/x-www-form-urlencoded; charset=utf-8');
    expect(req!.body).toEqual({
      token: SPARROW_TOKEN,
      from: SPARROW_FROM,
      to: '9812345678',
      text: DEVANAGARI,
    });
  });

  it.each([
    [
      sparrowRefusal(1013, 'Insufficient Credits'),
      ProviderRefusal,
      'Insufficient Credits (response_code 1013)',
    ],
    [sparrowRefusal(1007, 'Invalid Receiver'), ProviderRefusal, 'Invalid Receiver'],
    // An error answered with HTTP 200: the body decides.
    [
      { status: 200, body: { response_code: 1012, response: 'No Credits Available' } },
      ProviderRefusal,
      '1012',
    ],
    [{ status: 503, body: undefined }, ProviderUnavailable, 'HTTP 503'],
    [{ status: 502, body: { response_code: 1000 } }, ProviderUnavailable, 'HTTP 502'],
    [{ status: 200, body: undefined }, ProviderUnavailable, 'unexpected answer'],
  ])('answer %j is a %o', async (answer, kind, reason) => {
    fake.answerNext(answer);
    const error = await sparrow()
      .send({ to: NEPALI, text: 'hello' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(kind);
    expect((error as Error).message).toContain(reason);
    expect((error as Error).message).not.toContain('hello');
  });

  it('reads a wrong token as the refusal Sparrow answers (403, 1002)', async () => {
    const error = await sparrow({ token: 'wrong' })
      .send({ to: NEPALI, text: 'x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect((error as ProviderRefusal).reason).toBe('Invalid Token (response_code 1002)');
  });

  it('a provider that does not answer in time is unavailable (retried), not refused', async () => {
    fake.answerNext({ status: 200, hang: true });
    const error = await sparrow({ timeoutMs: 150 })
      .send({ to: NEPALI, text: 'x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect((error as Error).message).toContain('no answer within 150 ms');
  });

  it('refuses a number that is not a Nepali mobile without calling Sparrow', async () => {
    const before = fake.received.length;
    expect(sparrow().accepts('+14155550100')).toBe(false);
    await expect(sparrow().send({ to: '+14155550100', text: 'x' })).rejects.toBeInstanceOf(ProviderRefusal);
    expect(fake.received.length).toBe(before);
  });
});

describe('Aakash SMS adapter', () => {
  let fake: Awaited<ReturnType<typeof startFakeAakash>>;
  beforeAll(async () => {
    fake = await startFakeAakash();
  });
  afterAll(() => fake.close());
  const aakash = (token = AAKASH_TOKEN) => createAakashSms({ token, url: fake.sendUrl, timeoutMs: 2000 });

  it('posts auth_token, the 10-digit number and the UTF-8 text; `error: false` with a valid entry is sent', async () => {
    const before = fake.received.length;
    await aakash().send({ to: NEPALI, text: DEVANAGARI });
    expect(fake.received.slice(before).map((r) => r.body)).toEqual([
      { auth_token: AAKASH_TOKEN, to: '9812345678', text: DEVANAGARI },
    ]);
  });

  it('`error: true` with HTTP 200 is a refusal with its message (bad token, no balance)', async () => {
    await expect(aakash('wrong').send({ to: NEPALI, text: 'x' })).rejects.toMatchObject({
      name: 'ProviderRefusal',
      reason: 'The provided Auth Token is not valid.',
    });
    fake.answerNext({ status: 200, body: { error: true, message: 'Not enough balance.', data: [] } });
    await expect(aakash().send({ to: NEPALI, text: 'x' })).rejects.toMatchObject({
      reason: 'Not enough balance.',
    });
  });

  it('a number listed only under data.invalid is refused; 5xx is unavailable', async () => {
    fake.answerNext({
      status: 200,
      body: {
        error: false,
        message: '0 messages has been queued for delivery.',
        data: {
          valid: [],
          invalid: [{ mobile: '9812345678', credit: 0, network: 'N/A', status: 'aborted' }],
        },
      },
    });
    await expect(aakash().send({ to: NEPALI, text: 'x' })).rejects.toMatchObject({
      name: 'ProviderRefusal',
      reason: 'number not accepted (aborted)',
    });
    fake.answerNext({ status: 500 });
    await expect(aakash().send({ to: NEPALI, text: 'x' })).rejects.toBeInstanceOf(ProviderUnavailable);
  });
});

describe('FCM HTTP v1 adapter', () => {
  let fake: Awaited<ReturnType<typeof startFakeFcm>>;
  // The fake checks the assertion's exp against the real clock: start from it.
  let now = Date.now();
  beforeAll(async () => {
    fake = await startFakeFcm({ accessTokenLifetimeSeconds: 3600 });
  });
  afterAll(() => fake.close());
  const fcm = () =>
    createFcmPush({
      account: readServiceAccount({ json: fake.serviceAccountJson }),
      baseUrl: fake.url,
      timeoutMs: 2000,
      now: () => now,
    });

  it('gets an access token with a signed JWT-bearer assertion, keeps it until shortly before expiry, and sends', async () => {
    const push = fcm();
    await push.send({
      to: 'device-1',
      title: 'Order shipped',
      body: 'ORD-1 is on its way',
      data: { orderId: 7 },
    });
    await push.send({ to: 'device-1', title: 'नमस्ते', body: 'अर्डर पठाइयो', data: { type: 'order' } });
    expect(push.accessTokenRequests()).toBe(1);
    expect(fake.delivered.slice(-2)).toEqual([
      {
        token: 'device-1',
        notification: { title: 'Order shipped', body: 'ORD-1 is on its way' },
        data: { orderId: '7' },
      },
      { token: 'device-1', notification: { title: 'नमस्ते', body: 'अर्डर पठाइयो' }, data: { type: 'order' } },
    ]);
    now += 56 * 60_000; // within five minutes of the hour: a fresh token first
    await push.send({ to: 'device-1', title: 't', body: 'b' });
    expect(push.accessTokenRequests()).toBe(2);
  });

  it('UNREGISTERED and an invalid registration token are PushTokenRejected, naming the token', async () => {
    fake.unregistered.add('gone');
    fake.malformed.add('garbled');
    for (const token of ['gone', 'garbled']) {
      const error = await fcm()
        .send({ to: token, title: 't', body: 'b' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PushTokenRejected);
      expect((error as PushTokenRejected).token).toBe(token);
    }
  });

  it('INVALID_ARGUMENT about another field is a refusal, not a dead token; 503 and 429 are unavailable', async () => {
    const push = fcm();
    await push.send({ to: 'device-1', title: 't', body: 'b' }); // the access token first
    fake.answerNext({
      status: 400,
      body: {
        error: {
          code: 400,
          message: 'Message is too big',
          status: 'INVALID_ARGUMENT',
          details: [
            { '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'INVALID_ARGUMENT' },
            {
              '@type': 'type.googleapis.com/google.rpc.BadRequest',
              fieldViolations: [{ field: 'message.data' }],
            },
          ],
        },
      },
    });
    const refused = await push.send({ to: 'device-1', title: 't', body: 'b' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProviderRefusal);
    expect(refused).not.toBeInstanceOf(PushTokenRejected);
    fake.answerNext(fcmError(503, 'UNAVAILABLE', 'The service is currently unavailable.', 'UNAVAILABLE'));
    await expect(push.send({ to: 'device-1', title: 't', body: 'b' })).rejects.toBeInstanceOf(
      ProviderUnavailable,
    );
    fake.answerNext(fcmError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded', 'QUOTA_EXCEEDED'));
    await expect(push.send({ to: 'device-1', title: 't', body: 'b' })).rejects.toBeInstanceOf(
      ProviderUnavailable,
    );
  });

  it('a revoked access token (401) is dropped and fetched again on the next try', async () => {
    const push = fcm();
    await push.send({ to: 'device-1', title: 't', body: 'b' });
    fake.revokeAccessTokens();
    await expect(push.send({ to: 'device-1', title: 't', body: 'b' })).rejects.toBeInstanceOf(
      ProviderUnavailable,
    );
    await push.send({ to: 'device-1', title: 't', body: 'b' });
    expect(push.accessTokenRequests()).toBe(2);
  });

  it('a key the token endpoint does not trust is a refusal with its error, and no secret in the message', async () => {
    const other = await startFakeFcm();
    try {
      // The other fake's key, this fake's token endpoint: the signature does not verify.
      const account = {
        ...readServiceAccount({ json: other.serviceAccountJson }),
        token_uri: `${fake.url}/token`,
      };
      const push = createFcmPush({ account, baseUrl: fake.url, timeoutMs: 2000 });
      const error = await push.send({ to: 'device-1', title: 't', body: 'b' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderRefusal);
      expect((error as Error).message).toContain('invalid_grant');
      expect((error as Error).message).not.toContain('PRIVATE KEY');
    } finally {
      await other.close();
    }
  });

  it('reads a service account without echoing it when it is wrong', () => {
    expect(() => readServiceAccount({ json: '{"private_key":"-----BEGIN PRIVATE KEY-----x"}' })).toThrow(
      /missing or bad: project_id, client_email, token_uri/,
    );
    expect(() => readServiceAccount({ json: 'not json' })).toThrow('is not JSON');
    expect(() => readServiceAccount({ file: '/nonexistent/key.json' })).toThrow(
      'cannot read /nonexistent/key.json (ENOENT)',
    );
  });
});
