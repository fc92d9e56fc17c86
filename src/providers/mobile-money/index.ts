// The mobile-money provider in use, chosen by config.ts like every provider: Wave, or its sandbox.
import { appConfig } from '../../config';
import type { MobileMoneyProvider } from './mobile-money-provider';
import { SandboxMobileMoneyProvider } from './sandbox-provider';
import { WaveProvider } from './wave-provider';

export * from './mobile-money-provider';
export { SandboxMobileMoneyProvider, type SignedDelivery } from './sandbox-provider';
export { WaveProvider } from './wave-provider';
export { signWaveBody, WAVE_SIGNATURE_HEADER } from './wave-signature';

/** Wave in production and wherever WAVE_API_KEY is set; the sandbox otherwise. */
export function mobileMoneyProvider(env: Env): MobileMoneyProvider {
  const wave = appConfig(env).wave;
  return wave.mode === 'LIVE' ? new WaveProvider({ apiKey: wave.apiKey, webhookSecret: wave.webhookSecret }) : new SandboxMobileMoneyProvider(env, wave.webhookSecret);
}
