// The e-mail port: an interface, the real adapter (Cloudflare Email Service, cloudflare-email.ts)
// and the sandbox (sandbox-email.ts), chosen by config.ts like every provider.
import { appConfig } from '../../config';
import { database } from '../../db/client';
import { CloudflareEmailProvider } from './cloudflare-email';
import { SandboxEmailProvider } from './sandbox-email';

/** A rendered e-mail, ready for a provider. */
export interface OutgoingEmail {
  /** The deliveries row it comes from (the sandbox records it; the real adapter tags the message). */
  deliveryId: number;
  to: string;
  template: string;
  locale: 'fr' | 'en';
  subject: string;
  text: string;
  html: string;
  /** Extra headers: List-Unsubscribe and List-Unsubscribe-Post on notification e-mails. */
  headers: Record<string, string>;
  /** Every absolute link the message carries (the development outbox lists them). */
  links: string[];
}

export interface EmailProvider {
  /** Sends the message; returns the provider's message id. Throws on failure (the consumer retries). */
  send(message: OutgoingEmail): Promise<{ providerMessageId: string }>;
}

/** The provider in use: the real adapter in production and wherever EMAIL and EMAIL_FROM are set. */
export function emailProvider(env: Env): EmailProvider {
  const choice = appConfig(env).email;
  if (choice.mode === 'LIVE' && env.EMAIL) return new CloudflareEmailProvider(env.EMAIL, choice.from);
  return new SandboxEmailProvider(database(env.DB));
}
