// The push provider in use, chosen by config.ts like every provider.
import { appConfig } from '../../config';
import { database } from '../../db/client';
import { FcmPushProvider, parseServiceAccount } from './fcm';
import type { PushProvider } from './push-provider';
import { SandboxPushProvider } from './sandbox-push';

/** FCM in production and wherever FCM_SERVICE_ACCOUNT is set; the sandbox otherwise. */
export function pushProvider(env: Env): PushProvider {
  const choice = appConfig(env).push;
  if (choice.mode === 'LIVE') return new FcmPushProvider(parseServiceAccount(choice.serviceAccount));
  return new SandboxPushProvider(database(env.DB));
}
