// The e-mail provider in use, chosen by config.ts like every provider.
import { appConfig } from '../../config';
import { database } from '../../db/client';
import { CloudflareEmailProvider } from './cloudflare-email';
import type { EmailProvider } from './email';
import { SandboxEmailProvider } from './sandbox-email';

/** The provider in use: the real adapter in production and wherever EMAIL and EMAIL_FROM are set. */
export function emailProvider(env: Env): EmailProvider {
  const choice = appConfig(env).email;
  if (choice.mode === 'LIVE' && env.EMAIL) return new CloudflareEmailProvider(env.EMAIL, choice.from);
  return new SandboxEmailProvider(database(env.DB));
}
