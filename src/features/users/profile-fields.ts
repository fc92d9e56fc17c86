// Zod schemas of the profile fields shared by registration and PUT /user/me, and email
// normalisation (emails are compared lower-cased and trimmed everywhere).
import { z } from '@hono/zod-openapi';

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export const EmailField = z.email().max(254).openapi({ example: 'jane@example.com' });
export const PasswordField = z.string().min(8).max(128).openapi({ format: 'password', example: 'Correct-horse-1' });

const today = () => new Date().toISOString().slice(0, 10);

export const ProfileFields = {
  firstName: z.string().trim().min(1).max(100),
  lastName: z.string().trim().min(1).max(100),
  username: z
    .string()
    .min(3)
    .max(30)
    .regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, dot, underscore and hyphen only'),
  phoneNumber: z
    .string()
    .regex(/^\+?[0-9][0-9 ()-]{5,19}$/, 'a phone number, e.g. +33612345678')
    .openapi({ example: '+33612345678' }),
  birthDate: z.iso
    .date()
    // Only well-formed dates reach the range check, so a malformed one reports one error.
    .refine((d) => !/^\d{4}-\d{2}-\d{2}$/.test(d) || (d >= '1900-01-01' && d < today()), 'must be a past date')
    .openapi({ example: '1990-04-21' }),
  nationality: z
    .string()
    .regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2 country code')
    .openapi({ example: 'FR' }),
  avatarUrl: z.url().max(2048),
};
