// The e-mail port: what a provider is given and answers. The real adapter (Cloudflare Email
// Service, cloudflare-email.ts) and the sandbox (sandbox-email.ts) implement it; index.ts chooses.

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
  /** Files attached (the receipt PDF of the payment confirmation). */
  attachments?: EmailAttachmentFile[];
}

export interface EmailAttachmentFile {
  filename: string;
  /** MIME type. */
  type: string;
  content: ArrayBuffer;
}

export interface EmailProvider {
  /** Sends the message; returns the provider's message id. Throws on failure (the consumer retries). */
  send(message: OutgoingEmail): Promise<{ providerMessageId: string }>;
}
