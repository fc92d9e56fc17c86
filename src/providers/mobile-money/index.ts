// The mobile-money rails in use, chosen by config.ts like every provider: Wave (or its sandbox),
// behind the one port (port.ts) that features use.
import { appConfig, type AppConfig } from '../../config';
import type { WaveApi } from './wave-api';
import { railsOf, type MobileMoneyRails } from './rails';
import { SandboxMobileMoneyProvider } from './sandbox-provider';
import { WaveProvider } from './wave-provider';
import { WaveRail } from './wave-rail';
import { PAWAPAY_BASE, PawapayRail } from './pawapay/pawapay-rail';
import { PawapaySandbox } from './pawapay/pawapay-sandbox';
import { PAWAPAY_OPERATORS } from './pawapay/pawapay-wire';
import type { MobileMoneyRail } from './port';

export * from './port';
export * from './rails';
export * from './wave-api';
export { SandboxMobileMoneyProvider, type SignedDelivery } from './sandbox-provider';
export { WaveProvider } from './wave-provider';
export { WaveRail, waveMobile, WAVE_COUNTRIES } from './wave-rail';
export { signWaveBody, WAVE_SIGNATURE_HEADER } from './wave-signature';
export { PawapayRail, PAWAPAY_BASE, type PawapaySettings } from './pawapay/pawapay-rail';
export { PawapaySandbox, SANDBOX_LIMITS, sandboxPrediction } from './pawapay/pawapay-sandbox';
export { PAWAPAY_OPERATORS } from './pawapay/pawapay-wire';

/** Every operator code a rail of ours can reach (the API's `provider`); which are on today: the rails' operators(). */
export const OPERATOR_CODES = ['WAVE', ...Object.keys(PAWAPAY_OPERATORS)] as [string, ...string[]];

type WaveChoice = Exclude<AppConfig['wave'], { mode: 'OFF' }>;

/** Wave's API: Wave in production and wherever WAVE_API_KEY is set; the sandbox otherwise. */
function waveApi(env: Env, wave: WaveChoice): WaveApi {
  return wave.mode === 'LIVE' ? new WaveProvider({ apiKey: wave.apiKey, webhookSecret: wave.webhookSecret }) : new SandboxMobileMoneyProvider(env, wave.webhookSecret);
}

/** pawaPay (its production or its sandbox with a token), the local stand-in, or none. */
function pawapayRail(env: Env): MobileMoneyRail | null {
  const p = appConfig(env).pawapay;
  if (p.mode === 'OFF') return null;
  if (p.mode === 'SANDBOX') {
    const local = { mode: 'SANDBOX' as const, baseUrl: 'https://pawapay.sandbox.invalid', apiToken: 'sandbox', signing: null, callbackPublicKey: null };
    return new PawapayRail(local, env.KV, new PawapaySandbox(env.KV).transport);
  }
  return new PawapayRail({ ...p, baseUrl: PAWAPAY_BASE[p.mode] }, env.KV);
}

/** Every rail the configuration enables: Wave (unless OFF), then pawaPay. */
export function mobileMoneyRails(env: Env): MobileMoneyRails {
  const wave = appConfig(env).wave;
  const pawapay = pawapayRail(env);
  return railsOf([...(wave.mode !== 'OFF' ? [new WaveRail(waveApi(env, wave), wave.mode)] : []), ...(pawapay ? [pawapay] : [])]);
}
