// Zod schemas of the profile fields shared by registration and PUT /user/me, and email
// normalisation (emails are compared lower-cased and trimmed everywhere).
import { z } from '@hono/zod-openapi';
import { isCommonPassword } from '../../lib/common-passwords';
import { nameText } from '../../validation';

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export const EmailField = z.email().max(254).openapi({ example: 'jane@example.com' });
/** CONTRACT section 19: at least 10 characters, and not one of the most common passwords. */
export const PASSWORD_MIN_LENGTH = 10;
export const COMMON_PASSWORD_MESSAGE = 'user.commonPassword';
export const PasswordField = z
  .string()
  .min(PASSWORD_MIN_LENGTH)
  .max(128)
  .refine((password) => !isCommonPassword(password), COMMON_PASSWORD_MESSAGE)
  .openapi({ format: 'password', description: '10 to 128 characters, not one of the most common passwords', example: 'Correct-horse-1' });

const today = () => new Date().toISOString().slice(0, 10);

export const ProfileFields = {
  firstName: nameText(100),
  lastName: nameText(100),
  username: z
    .string()
    .min(3)
    .max(30)
    // ASCII letters and digits only: no bidirectional or zero-width character gets in.
    .regex(/^[A-Za-z0-9._-]+$/, 'user.lettersDigitsDotUnderscore'),
  phoneNumber: z
    .string()
    .regex(/^\+?[0-9][0-9 ()-]{5,19}$/, 'user.phoneNumberFormat')
    .openapi({ example: '+33612345678' }),
  birthDate: z.iso
    .date()
    // Only well-formed dates reach the range check, so a malformed one reports one error.
    .refine((d) => !/^\d{4}-\d{2}-\d{2}$/.test(d) || (d >= '1900-01-01' && d < today()), 'user.mustPastDate')
    .openapi({ example: '1990-04-21' }),
  address: z.string().trim().min(1).max(200).openapi({ description: 'Street and number, as the post writes it (printed on customs declarations)', example: '12 rue de la Paix' }),
  postalCode: z.string().trim().min(1).max(20).openapi({ example: '75002' }),
  city: z.string().trim().min(1).max(100).openapi({ example: 'Paris' }),
  nationality: z
    .string()
    .regex(/^[A-Z]{2}$/, 'user.countryCodeFormat')
    .openapi({ example: 'FR' }),
  avatarUrl: z
    .string()
    .max(2048)
    .refine((url) => isHttpsUrl(url) || UPLOADED_FILE_URL.test(url), 'user.avatarUrlFormat')
    .openapi({
      format: 'uri-reference',
      description: "An https URL, or the caller's own uploaded avatar exactly as POST /files answers it (`/v1/api/files/{id}`)",
      example: '/v1/api/files/42',
    }),
};

/** The url POST /files answers for an upload (files.service.ts fileView); group 1 is the file id. */
export const UPLOADED_FILE_URL = /^\/v1\/api\/files\/([1-9][0-9]{0,9})$/;

/** An absolute https URL with a host: no javascript:, data:, file: or plain http (shown to others). */
export function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '';
  } catch {
    return false;
  }
}
