// What an upload may be: the content type read from the file's first bytes (never the client's
// claim), the types each purpose accepts, and the size limit.
import type { FilePurpose } from '../../db/schema';

export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const DOCUMENT_TYPES = [...IMAGE_TYPES, 'application/pdf'] as const;
export type DetectedType = (typeof DOCUMENT_TYPES)[number];

export const ALLOWED_TYPES: Record<FilePurpose, readonly DetectedType[]> = {
  AVATAR: IMAGE_TYPES,
  PARCEL_IMAGE: IMAGE_TYPES,
  KYC_DOCUMENT: DOCUMENT_TYPES,
  AGENCY_DOCUMENT: DOCUMENT_TYPES,
  DISPUTE_EVIDENCE: DOCUMENT_TYPES,
  // A ticket or boarding pass: a photo, a screenshot or the airline's PDF.
  TRAVEL_PROOF: DOCUMENT_TYPES,
};

/** Purposes whose files belong to a reservation (its parties may read them). */
export const RESERVATION_PURPOSES: readonly FilePurpose[] = ['PARCEL_IMAGE', 'DISPUTE_EVIDENCE'];

/** How many leading bytes detection needs. */
export const SNIFF_BYTES = 16;

const startsWith = (bytes: Uint8Array, sig: readonly number[], offset = 0) =>
  bytes.length >= offset + sig.length && sig.every((b, i) => bytes[offset + i] === b);
const ascii = (s: string) => [...s].map((ch) => ch.charCodeAt(0));

const EXECUTABLE_SIGNATURES: readonly (readonly number[])[] = [
  ascii('MZ'), // Windows PE / DOS
  [0x7f, ...ascii('ELF')], // Linux
  [0xfe, 0xed, 0xfa, 0xce], // Mach-O 32
  [0xfe, 0xed, 0xfa, 0xcf], // Mach-O 64
  [0xce, 0xfa, 0xed, 0xfe],
  [0xcf, 0xfa, 0xed, 0xfe],
  [0xca, 0xfe, 0xba, 0xbe], // Mach-O universal / Java class
  ascii('#!'), // scripts
  [0x00, 0x61, 0x73, 0x6d], // WebAssembly
];

/** The file's real type from its magic number; 'executable' for programs; null for anything else. */
export function detectContentType(head: Uint8Array): DetectedType | 'executable' | null {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(head, ascii('%PDF-'))) return 'application/pdf';
  if (EXECUTABLE_SIGNATURES.some((sig) => startsWith(head, sig))) return 'executable';
  return null;
}

export const isAllowed = (purpose: FilePurpose, type: DetectedType) => ALLOWED_TYPES[purpose].includes(type);
