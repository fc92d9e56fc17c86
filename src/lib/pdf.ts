// A one-page text PDF (PDF 1.4) in the standard Helvetica fonts, which every reader has: all a
// receipt needs. Written by hand rather than with pdf-lib, whose font metrics and compression
// code were about 180 KiB of the gzipped worker (a third of it) for this one page; see
// docs/decisions-proof.md. The file is plain ASCII, so byte offsets are string lengths.

export interface PdfLine {
  text: string;
  /** Font size in points (default 11). */
  size?: number;
  bold?: boolean;
  /** Extra space above the line, in points. */
  gapBefore?: number;
}

const PAGE = { width: 595, height: 842, margin: 50, top: 780 }; // A4 in points
/** Helvetica is about 0.5 em per character on average: longer lines are cut to stay on the page. */
const maxChars = (size: number) => Math.floor((PAGE.width - 2 * PAGE.margin) / (size * 0.5));

// WinAnsiEncoding: Latin-1 for 0xA0-0xFF, plus these in 0x80-0x9F.
const WIN_ANSI_EXTRA: Record<string, number> = {
  '€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87, 'ˆ': 0x88, '‰': 0x89, 'Š': 0x8a,
  '‹': 0x8b, 'Œ': 0x8c, 'Ž': 0x8e, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97,
  '˜': 0x98, '™': 0x99, 'š': 0x9a, '›': 0x9b, 'œ': 0x9c, 'ž': 0x9e, 'Ÿ': 0x9f,
};

/** A PDF string literal: WinAnsi bytes, escaped; characters the font cannot show become '?'. */
export function pdfString(text: string): string {
  let out = '(';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0)!;
    const byte = code >= 0x20 && code <= 0x7e ? code : code >= 0xa0 && code <= 0xff ? code : (WIN_ANSI_EXTRA[ch] ?? 0x3f);
    if (byte === 0x28 || byte === 0x29 || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`;
    else if (byte > 0x7e) out += `\\${byte.toString(8).padStart(3, '0')}`;
    else out += String.fromCharCode(byte);
  }
  return `${out})`;
}

const clip = (text: string, size: number) => {
  const max = maxChars(size);
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 3).join('')}...`;
};

/** One A4 page of left-aligned lines, top to bottom, with a document title. */
export function textPdf(title: string, lines: PdfLine[]): Uint8Array {
  let y = PAGE.top;
  const content = ['0.1 0.1 0.1 rg'];
  for (const line of lines) {
    const size = line.size ?? 11;
    y -= line.gapBefore ?? 0;
    content.push(`BT /${line.bold ? 'F2' : 'F1'} ${size} Tf ${PAGE.margin} ${y} Td ${pdfString(clip(line.text, size))} Tj ET`);
    y -= size + 10;
  }
  const stream = content.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE.width} ${PAGE.height}] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    `<< /Title ${pdfString(title)} /Creator (parcel-marketplace-api) >>`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}
