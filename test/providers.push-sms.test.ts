// The real push and SMS adapters against faithful fakes of the providers' HTTP APIs (msw): FCM
// HTTP v1 with Google's OAuth token endpoint (the JWT assertion's signature checked with the
// service account's public key), and Twilio's Messages API (basic auth, form body). Exact requests,
// token caching, and what each error answer means for the delivery.
import { exportPKCS8, generateKeyPair, jwtVerify, type CryptoKey } from 'jose';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FcmPushProvider, fcmOutcome, parseServiceAccount, type ServiceAccount } from '../src/providers/push/fcm';
import { TwilioSmsProvider } from '../src/providers/sms/twilio';
import { steppingClock } from './helpers/stepping-clock';

const server = setupServer();
/** What the sandboxes record besides the text; the real adapters ignore it. */
const CTX = { template: 'RESERVATION_DEPOSITED', locale: 'fr' as const, links: [] as string[] };
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const TOKEN_URI = 'https://oauth2.googleapis.com/token';
const SEND_URL = (project: string) => `https://fcm.googleapis.com/v1/projects/${project}/messages:send`;

async function serviceAccount(project: string): Promise<{ account: ServiceAccount; publicKey: CryptoKey }> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const account = parseServiceAccount(
    JSON.stringify({
      type: 'service_account',
      project_id: project,
      private_key_id: 'key-1',
      private_key: await exportPKCS8(privateKey),
      client_email: `push@${project}.iam.gserviceaccount.com`,
      token_uri: TOKEN_URI,
    }),
  );
  return { account, publicKey };
}

/** Google's token endpoint: checks the assertion like Google does, and counts the exchanges. */
function fakeGoogleOAuth(account: ServiceAccount, publicKey: CryptoKey, accessToken: string) {
  const exchanges: Record<string, unknown>[] = [];
  server.use(
    http.post(TOKEN_URI, async ({ request }) => {
      const form = new URLSearchParams(await request.text());
      expect(request.headers.get('Content-Type')).toBe('application/x-www-form-urlencoded');
      expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
      const { payload, protectedHeader } = await jwtVerify(form.get('assertion')!, publicKey, {
        issuer: account.client_email,
        audience: TOKEN_URI,
      });
      expect(protectedHeader).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'key-1' });
      expect(payload.scope).toBe('https://www.googleapis.com/auth/firebase.messaging');
      expect(payload.exp! - payload.iat!).toBe(3600);
      exchanges.push(payload);
      return HttpResponse.json({ access_token: accessToken, expires_in: 3599, token_type: 'Bearer' });
    }),
  );
  return exchanges;
}

describe('FCM HTTP v1', () => {
  it('sends with an OAuth token from a signed assertion, cached across sends; the delivery id collapses duplicates', async () => {
    const { account, publicKey } = await serviceAccount('parcel-a');
    const exchanges = fakeGoogleOAuth(account, publicKey, 'ya29.token-a');
    const sent: unknown[] = [];
    server.use(
      http.post(SEND_URL('parcel-a'), async ({ request }) => {
        expect(request.headers.get('Authorization')).toBe('Bearer ya29.token-a');
        sent.push(await request.json());
        return HttpResponse.json({ name: `projects/parcel-a/messages/0:${sent.length}` });
      }),
    );
    const fcm = new FcmPushProvider(account);

    const first = await fcm.send({ ...CTX, deliveryId: 'd-1', token: 'device-token-1', title: 'Colis remis', body: 'Votre colis est en route', data: { reservationId: '42' } });
    const second = await fcm.send({ ...CTX, deliveryId: 'd-2', token: 'device-token-2', title: 'Livré', body: 'Votre colis est livré' });

    expect(first).toEqual({ status: 'SENT', providerMessageId: 'projects/parcel-a/messages/0:1' });
    expect(second).toEqual({ status: 'SENT', providerMessageId: 'projects/parcel-a/messages/0:2' });
    expect(exchanges).toHaveLength(1);
    expect(sent[0]).toEqual({
      message: {
        token: 'device-token-1',
        notification: { title: 'Colis remis', body: 'Votre colis est en route' },
        data: { reservationId: '42', deliveryId: 'd-1' },
        android: { collapse_key: 'd-1', priority: 'high' },
        apns: { headers: { 'apns-collapse-id': 'd-1' } },
      },
    });
  });

  it('the assertion lives exactly one hour even when the clock ticks between its claims (one read for iat and exp)', async () => {
    const { account, publicKey } = await serviceAccount('parcel-clock');
    const exchanges = fakeGoogleOAuth(account, publicKey, 'ya29.token-clock');
    server.use(http.post(SEND_URL('parcel-clock'), () => HttpResponse.json({ name: 'projects/parcel-clock/messages/0:1' })));
    const restore = steppingClock();
    try {
      expect(await new FcmPushProvider(account).send({ ...CTX, deliveryId: 'd', token: 't', title: 'x', body: 'y' })).toEqual({
        status: 'SENT',
        providerMessageId: 'projects/parcel-clock/messages/0:1',
      });
    } finally {
      restore();
    }
    // Two reads a second apart made it 3601, and Google refuses an assertion over an hour.
    expect(exchanges).toHaveLength(1);
    expect(Number(exchanges[0].exp) - Number(exchanges[0].iat)).toBe(3600);
  });

  it('UNREGISTERED means delete the device; a bad message is rejected for good; 429 and 5xx are retried', async () => {
    const { account, publicKey } = await serviceAccount('parcel-b');
    fakeGoogleOAuth(account, publicKey, 'ya29.token-b');
    const answers = [
      HttpResponse.json(
        { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND', details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' }] } },
        { status: 404 },
      ),
      HttpResponse.json(
        { error: { code: 400, message: 'The registration token is not a valid FCM registration token', status: 'INVALID_ARGUMENT', details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'INVALID_ARGUMENT' }] } },
        { status: 400 },
      ),
      HttpResponse.json({ error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED', details: [{ errorCode: 'QUOTA_EXCEEDED' }] } }, { status: 429 }),
      HttpResponse.json({ error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' } }, { status: 503 }),
    ];
    server.use(http.post(SEND_URL('parcel-b'), () => answers.shift()!));
    const fcm = new FcmPushProvider(account);
    const send = () => fcm.send({ ...CTX, deliveryId: 'd', token: 't', title: 'x', body: 'y' });

    expect(await send()).toEqual({ status: 'UNREGISTERED', reason: 'FCM UNREGISTERED: Requested entity was not found.' });
    expect(await send()).toEqual({ status: 'REJECTED', reason: 'FCM INVALID_ARGUMENT: The registration token is not a valid FCM registration token' });
    expect(await send()).toEqual({ status: 'RETRY', reason: 'FCM QUOTA_EXCEEDED: Quota exceeded' });
    expect(await send()).toEqual({ status: 'RETRY', reason: 'FCM UNAVAILABLE: The service is currently unavailable.' });
  });

  it('a stale access token (401) is dropped: the next send fetches a new one', async () => {
    const { account, publicKey } = await serviceAccount('parcel-c');
    const exchanges = fakeGoogleOAuth(account, publicKey, 'ya29.token-c');
    let calls = 0;
    server.use(
      http.post(SEND_URL('parcel-c'), () =>
        ++calls === 1
          ? HttpResponse.json({ error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } }, { status: 401 })
          : HttpResponse.json({ name: 'projects/parcel-c/messages/0:9' }),
      ),
    );
    const fcm = new FcmPushProvider(account);
    expect((await fcm.send({ ...CTX, deliveryId: 'd', token: 't', title: 'x', body: 'y' })).status).toBe('RETRY');
    expect(await fcm.send({ ...CTX, deliveryId: 'd', token: 't', title: 'x', body: 'y' })).toEqual({ status: 'SENT', providerMessageId: 'projects/parcel-c/messages/0:9' });
    expect(exchanges).toHaveLength(2);
  });

  it('a service account JSON without its key is refused at start', () => {
    expect(() => parseServiceAccount('{"project_id":"p","client_email":"e"}')).toThrow('FCM service account JSON lacks project_id, client_email or private_key');
    expect(fcmOutcome(500, {})).toEqual({ status: 'RETRY', reason: 'FCM HTTP_500: no message' });
  });
});

describe("Twilio's Messages API", () => {
  const URL_OF = (sid: string) => `https://api.twilio.com/2010-04-01/Accounts/${sid}/Messages.json`;

  it('posts the form with basic auth and returns the message SID', async () => {
    const seen: { auth: string | null; form: Record<string, string> }[] = [];
    server.use(
      http.post(URL_OF('AC123'), async ({ request }) => {
        seen.push({ auth: request.headers.get('Authorization'), form: Object.fromEntries(new URLSearchParams(await request.text())) });
        return HttpResponse.json({ sid: 'SM0123456789abcdef', status: 'queued' }, { status: 201 });
      }),
    );
    const twilio = new TwilioSmsProvider({ accountSid: 'AC123', authToken: 'secret-token', from: '+33700000000' });
    const outcome = await twilio.send({ ...CTX, deliveryId: 'd-7', to: '+33612345678', body: 'Votre colis arrive : https://api.example.com/r/abc' });

    expect(outcome).toEqual({ status: 'SENT', providerMessageId: 'SM0123456789abcdef' });
    expect(seen).toEqual([
      {
        auth: `Basic ${btoa('AC123:secret-token')}`,
        form: { To: '+33612345678', Body: 'Votre colis arrive : https://api.example.com/r/abc', From: '+33700000000' },
      },
    ]);
  });

  it('a Messaging Service sends as MessagingServiceSid; an API key authenticates as itself', async () => {
    const seen: { auth: string | null; form: Record<string, string> }[] = [];
    server.use(
      http.post(URL_OF('AC456'), async ({ request }) => {
        seen.push({ auth: request.headers.get('Authorization'), form: Object.fromEntries(new URLSearchParams(await request.text())) });
        return HttpResponse.json({ sid: 'SM2' }, { status: 201 });
      }),
    );
    await new TwilioSmsProvider({ accountSid: 'AC456', apiKeySid: 'SK789', authToken: 'key-secret', from: 'MG000' }).send({ ...CTX, deliveryId: 'd', to: '+221770000000', body: 'x' });
    expect(seen[0]).toEqual({ auth: `Basic ${btoa('SK789:key-secret')}`, form: { To: '+221770000000', Body: 'x', MessagingServiceSid: 'MG000' } });
  });

  it('an invalid number is rejected for good; throttling and outages are retried', async () => {
    const answers = [
      HttpResponse.json({ code: 21211, message: "The 'To' number +33 is not a valid phone number.", more_info: 'https://www.twilio.com/docs/errors/21211', status: 400 }, { status: 400 }),
      HttpResponse.json({ code: 20429, message: 'Too Many Requests', status: 429 }, { status: 429 }),
      new HttpResponse('upstream down', { status: 502 }),
    ];
    server.use(http.post(URL_OF('AC999'), () => answers.shift()!));
    const twilio = new TwilioSmsProvider({ accountSid: 'AC999', authToken: 't', from: '+33700000000' });
    const send = () => twilio.send({ ...CTX, deliveryId: 'd', to: '+33', body: 'x' });
    expect(await send()).toEqual({ status: 'REJECTED', reason: "Twilio 21211: The 'To' number +33 is not a valid phone number." });
    expect(await send()).toEqual({ status: 'RETRY', reason: 'Twilio 20429: Too Many Requests' });
    expect(await send()).toEqual({ status: 'RETRY', reason: 'Twilio HTTP 502: no message' });
  });
});
