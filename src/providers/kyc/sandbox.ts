// The local sandbox provider: the "verification" happens on a page this service serves itself
// (/sandbox/kyc/{sessionId}), whose buttons post a signed callback through the real webhook handler.
import { randomHex } from '../../lib/digest';
import { rootUrl } from '../../lib/urls';
import type { KycProvider, KycSession, StartSessionInput } from './kyc-provider';

export const SANDBOX_SESSION_TTL_SECONDS = 60 * 60;

export class SandboxKycProvider implements KycProvider {
  readonly name = 'sandbox';
  constructor(private readonly env: Pick<Env, 'PUBLIC_BASE_URL'>) {}

  async startSession(_input: StartSessionInput): Promise<KycSession> {
    const sessionId = `sbx_${randomHex(16)}`;
    return {
      sessionId,
      sessionUrl: rootUrl(this.env, `/sandbox/kyc/${sessionId}`),
      sessionToken: `sbxtok_${randomHex(24)}`,
      expiresAt: new Date(Date.now() + SANDBOX_SESSION_TTL_SECONDS * 1000).toISOString(),
    };
  }
}
