// Text for the standard PDF fonts: WinAnsiEncoding bytes (Latin-1, plus the euro sign, quotes and
// dashes in 0x80-0x9F), so French accents show; anything else becomes '?'.
import { byteWidth } from './helvetica-widths';

// WinAnsiEncoding: Latin-1 for 0xA0-0xFF, plus these in 0x80-0x9F.
const WIN_ANSI_EXTRA: Record<string, number> = {
  '€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87, 'ˆ': 0x88, '‰': 0x89, 'Š': 0x8a,
  '‹': 0x8b, 'Œ': 0x8c, 'Ž': 0x8e, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97,
  '˜': 0x98, '™': 0x99, 'š': 0x9a, '›': 0x9b, 'œ': 0x9c, 'ž': 0x9e, 'Ÿ': 0x9f,
};

/** The WinAnsi byte of one character; '?' (0x3F) for what the font cannot show (controls included). */
export function winAnsiByte(ch: string): number {
  const code = ch.codePointAt(0)!;
  if (code >= 0x20 && code <= 0x7e) return code;
  if (code >= 0xa0 && code <= 0xff) return code;
  return WIN_ANSI_EXTRA[ch] ?? 0x3f;
}

export const winAnsiBytes = (text: string): number[] => [...text.normalize('NFC')].map(winAnsiByte);

/** A PDF string literal: WinAnsi bytes, escaped; characters the font cannot show become '?'. */
export function pdfString(text: string): string {
  let out = '(';
  for (const byte of winAnsiBytes(text)) {
    if (byte === 0x28 || byte === 0x29 || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`;
    else if (byte > 0x7e) out += `\\${byte.toString(8).padStart(3, '0')}`;
    else out += String.fromCharCode(byte);
  }
  return `${out})`;
}

/** How wide `text` is set in Helvetica (or its bold) at `size` points. */
export const textWidth = (text: string, size: number, bold = false): number =>
  (winAnsiBytes(text).reduce((w, byte) => w + byteWidth(byte, bold), 0) * size) / 1000;
