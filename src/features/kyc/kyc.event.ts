// Parsing the provider callback body. The specification makes the body a single JSON string; that
// string holds the event object. A provider sending the object itself is accepted too.
import { z } from '@hono/zod-openapi';
import { KYC_DOCUMENT_TYPES } from '../../db/schema';
import { invalidArgument } from '../../errors';
import { KYC_EVENT_STATUSES, type KycEvent } from '../../providers/kyc';
import { toValidationError } from '../../validation';

export const KycEventSchema = z.object({
  eventId: z.string().min(1).max(200),
  sessionId: z.string().min(1).max(200),
  status: z.enum(KYC_EVENT_STATUSES),
  documentType: z.enum(KYC_DOCUMENT_TYPES).optional(),
  reason: z.string().max(500).optional(),
  /** When the provider produced the verdict; lets late deliveries of older events be ignored. */
  occurredAt: z.iso.datetime({ offset: true }).optional(),
});

const malformed = () =>
  invalidArgument('kyc.callbackBodyNotJson', {
    suggestions: ['kyc.sendJsonEvent'],
  });

export function parseKycEvent(raw: Uint8Array): KycEvent {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(raw));
    if (typeof value === 'string') value = JSON.parse(value);
  } catch {
    throw malformed();
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw malformed();
  const parsed = KycEventSchema.safeParse(value);
  if (!parsed.success) throw toValidationError(parsed.error.issues, value, 'json');
  return parsed.data;
}
