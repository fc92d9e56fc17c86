// The mobile-money rails in use, chosen by config.ts like every provider: Wave (or its sandbox),
// behind the one port (port.ts) that features use.
import { appConfig } from '../../config';
import type { WaveApi } from './wave-api';
import { railsOf, type MobileMoneyRails } from './rails';
import { SandboxMobileMoneyProvider } from './sandbox-provider';
import { WaveProvider } from './wave-provider';
import { WaveRail } from './wave-rail';

export * from './port';
export * from './rails';
export * from './wave-api';
export { SandboxMobileMoneyProvider, type SignedDelivery } from './sandbox-provider';
export { WaveProvider } from './wave-provider';
export { WaveRail, waveMobile, WAVE_COUNTRIES } from './wave-rail';
export { signWaveBody, WAVE_SIGNATURE_HEADER } from './wave-signature';

/** Wave's API: Wave in production and wherever WAVE_API_KEY is set; the sandbox otherwise. */
export function waveApi(env: Env): WaveApi {
  const wave = appConfig(env).wave;
  return wave.mode === 'LIVE' ? new WaveProvider({ apiKey: wave.apiKey, webhookSecret: wave.webhookSecret }) : new SandboxMobileMoneyProvider(env, wave.webhookSecret);
}

/** Every rail the configuration enables. */
export function mobileMoneyRails(env: Env): MobileMoneyRails {
  const wave = appConfig(env).wave;
  return railsOf([new WaveRail(waveApi(env), wave.mode)]);
}
