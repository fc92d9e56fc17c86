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

/**
 * PDF names that make a document act when opened (scripts, launched programs, embedded files,
 * form submission): an identity document or a piece of evidence needs none of them, and an
 * operator opens these files. Names may be written with #xx escapes (/J#61vaScript).
 */
const ACTIVE_PDF_NAMES = new Set(['JavaScript', 'JS', 'Launch', 'EmbeddedFile', 'EmbeddedFiles', 'RichMedia', 'SubmitForm', 'ImportData', 'XFA']);

/** At most this much inflated stream data is inspected per file (a compressed bomb stops there). */
const MAX_INFLATED_BYTES = 64 * 1024 * 1024;

const latin1 = new TextDecoder('latin1');

function activeName(text: string): string | null {
  for (const match of text.matchAll(/\/([^\s/<>[\]()%{}]+)/g)) {
    const name = match[1].replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (ACTIVE_PDF_NAMES.has(name)) return name;
  }
  return null;
}

/**
 * A stream's data inflated as far as it goes, at most `budget` bytes; null when it is not deflate
 * data (an image, another filter). The end-of-line before `endstream` trails the compressed data,
 * so an error after some output still returns that output.
 */
async function inflate(data: Uint8Array, budget: number): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = new Blob([data]).stream().pipeThrough(new DecompressionStream('deflate')).getReader();
  try {
    while (size < budget) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
    if (size >= budget) await reader.cancel();
  } catch {
    if (size === 0) return null;
  }
  const out = new Uint8Array(Math.min(size, budget));
  let at = 0;
  for (const chunk of chunks) {
    if (at >= out.length) break;
    out.set(chunk.subarray(0, out.length - at), at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * The first active name a PDF holds, in its plain objects or inside its compressed streams (object
 * streams hide dictionaries there); null for a passive document.
 */
export async function pdfActiveContent(bytes: Uint8Array): Promise<string | null> {
  const text = latin1.decode(bytes);
  const plain = activeName(text);
  if (plain) return plain;
  let budget = MAX_INFLATED_BYTES;
  for (const match of text.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    let end = text.indexOf('endstream', start);
    if (end < 0) break;
    // The end-of-line before `endstream` is not part of the data.
    while (end > start && (text[end - 1] === '\n' || text[end - 1] === '\r')) end--;
    const inflated = await inflate(bytes.subarray(start, end), budget);
    if (!inflated) continue;
    budget -= inflated.byteLength;
    const found = activeName(latin1.decode(inflated));
    if (found) return found;
    if (budget <= 0) break;
  }
  return null;
}
