// The SMS provider in use, chosen by config.ts like every provider.
import { appConfig } from '../../config';
import { database } from '../../db/client';
import { SandboxSmsProvider } from './sandbox-sms';
import type { SmsProvider } from './sms-provider';
import { TwilioSmsProvider } from './twilio';

/** Twilio (live or its test credentials) in production and wherever its three settings are set; the sandbox otherwise. */
export function smsProvider(env: Env): SmsProvider {
  const choice = appConfig(env).sms;
  if (choice.mode !== 'SANDBOX') return new TwilioSmsProvider({ accountSid: choice.accountSid, authToken: choice.authToken, from: choice.from });
  return new SandboxSmsProvider(database(env.DB));
}
