// A generic HTTP identity provider: sessions are created with one authenticated POST to its API and
// results come back through the HMAC-signed callback (hmac-signature.ts). Fits providers whose
// session API returns an id, a hosted URL and an SDK token.
import { internalError } from '../../errors';
import type { KycProvider, KycSession, StartSessionInput } from './kyc-provider';

interface ProviderSessionResponse {
  id?: string;
  sessionId?: string;
  url?: string;
  sessionUrl?: string;
  token?: string;
  sessionToken?: string;
  expiresAt?: string;
}

export class HttpKycProvider implements KycProvider {
  readonly name = 'http';
  constructor(
    private readonly apiUrl: string,
    private readonly apiKey: string,
    private readonly callbackUrl: string,
  ) {}

  async startSession(input: StartSessionInput): Promise<KycSession> {
    let res: Response;
    try {
      res = await fetch(`${this.apiUrl.replace(/\/$/, '')}/sessions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${this.apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ externalUserId: input.externalUserId, email: input.email, callbackUrl: this.callbackUrl }),
      });
    } catch (cause) {
      throw providerFailure(cause);
    }
    if (!res.ok) throw providerFailure(`status ${res.status}`);
    const body = (await res.json().catch((cause: unknown) => {
      throw providerFailure(cause);
    })) as ProviderSessionResponse;
    const sessionId = body.sessionId ?? body.id;
    const sessionUrl = body.sessionUrl ?? body.url;
    const sessionToken = body.sessionToken ?? body.token;
    if (!sessionId || !sessionUrl || !sessionToken) throw providerFailure('incomplete session response');
    return { sessionId, sessionUrl, sessionToken, expiresAt: body.expiresAt ?? new Date(Date.now() + 3600_000).toISOString() };
  }
}

// INTERNAL_ERROR is 500 in the error table (502 belongs to the payment provider's code).
const providerFailure = (cause: unknown) =>
  internalError('kyc.identityVerificationProviderUnavailable', {
    suggestions: ['kyc.retryFewMinutes'],
    cause,
  });
