// Firebase Cloud Messaging HTTP v1. A service account (its JSON key, a secret) signs a JWT
// assertion with jose; Google's token endpoint exchanges it for an OAuth access token, kept per
// isolate until a minute before it expires. FCM offers no idempotency key: a delivery's id is the
// collapse key on Android and apns-collapse-id on iOS, so a duplicate replaces the first on the
// device instead of showing twice.
import { SignJWT, importPKCS8 } from 'jose';
import { SEND_TIMEOUT_MS, type PushMessage, type PushProvider, type SendOutcome } from './push-provider';

export interface ServiceAccount {
  project_id: string;
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri?: string;
}

const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const DEFAULT_TOKEN_URI = 'https://oauth2.googleapis.com/token';
const TOKEN_LIFETIME_S = 3600;
const REFRESH_MARGIN_MS = 60_000;

/** Access tokens per service account, for the isolate's life. */
const accessTokens = new Map<string, { token: string; expiresAtMs: number }>();

export function parseServiceAccount(json: string): ServiceAccount {
  const parsed = JSON.parse(json) as Partial<ServiceAccount>;
  if (!parsed.project_id || !parsed.client_email || !parsed.private_key) {
    throw new Error('FCM service account JSON lacks project_id, client_email or private_key');
  }
  return parsed as ServiceAccount;
}

async function accessToken(account: ServiceAccount): Promise<string> {
  const cached = accessTokens.get(account.client_email);
  if (cached && cached.expiresAtMs - REFRESH_MARGIN_MS > Date.now()) return cached.token;
  const tokenUri = account.token_uri ?? DEFAULT_TOKEN_URI;
  const key = await importPKCS8(account.private_key, 'RS256');
  // One clock read for both claims: jose's setIssuedAt() and setExpirationTime('3600s') each read
  // the clock, and two reads straddling a second make exp - iat 3601, which Google refuses (> 1 h).
  const issuedAt = Math.floor(Date.now() / 1000);
  const assertion = await new SignJWT({ scope: SCOPE })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(account.private_key_id ? { kid: account.private_key_id } : {}) })
    .setIssuer(account.client_email)
    .setSubject(account.client_email)
    .setAudience(tokenUri)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + TOKEN_LIFETIME_S)
    .sign(key);
  const res = await fetch(tokenUri, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
  });
  if (!res.ok) throw new Error(`FCM OAuth token refused: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { access_token: string; expires_in: number };
  accessTokens.set(account.client_email, { token: body.access_token, expiresAtMs: Date.now() + body.expires_in * 1000 });
  return body.access_token;
}

interface FcmError {
  error?: { code?: number; message?: string; status?: string; details?: { '@type'?: string; errorCode?: string }[] };
}

/** What an FCM error answer means for the delivery (https://firebase.google.com/docs/cloud-messaging/error-codes). */
export function fcmOutcome(httpStatus: number, body: FcmError): SendOutcome {
  const errorCode = body.error?.details?.find((d) => d.errorCode)?.errorCode ?? body.error?.status ?? `HTTP_${httpStatus}`;
  const reason = `FCM ${errorCode}: ${body.error?.message ?? 'no message'}`;
  if (errorCode === 'UNREGISTERED' || (httpStatus === 404 && errorCode === 'NOT_FOUND')) return { status: 'UNREGISTERED', reason };
  if (httpStatus === 429 || httpStatus >= 500 || errorCode === 'QUOTA_EXCEEDED' || errorCode === 'UNAVAILABLE' || errorCode === 'INTERNAL') {
    return { status: 'RETRY', reason };
  }
  // 401 means our access token went stale: drop it and try again later.
  if (httpStatus === 401) return { status: 'RETRY', reason };
  return { status: 'REJECTED', reason };
}

export class FcmPushProvider implements PushProvider {
  constructor(private readonly account: ServiceAccount) {}

  async send(message: PushMessage): Promise<SendOutcome> {
    let token: string;
    try {
      token = await accessToken(this.account);
    } catch (err) {
      return { status: 'RETRY', reason: err instanceof Error ? err.message : String(err) };
    }
    const data = { ...message.data, deliveryId: message.deliveryId };
    let res: Response;
    try {
      res = await fetch(`https://fcm.googleapis.com/v1/projects/${encodeURIComponent(this.account.project_id)}/messages:send`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        // A provider that hangs is a failure to retry, not a consumer stuck until the queue gives up.
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        body: JSON.stringify({
          message: {
            token: message.token,
            notification: { title: message.title, body: message.body },
            data,
            android: { collapse_key: message.deliveryId, priority: 'high' },
            apns: { headers: { 'apns-collapse-id': message.deliveryId.slice(0, 64) } },
          },
        }),
      });
    } catch (err) {
      return { status: 'RETRY', reason: `FCM unreachable: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (res.ok) return { status: 'SENT', providerMessageId: ((await res.json()) as { name: string }).name };
    if (res.status === 401) accessTokens.delete(this.account.client_email);
    return fcmOutcome(res.status, (await res.json().catch(() => ({}))) as FcmError);
  }
}
