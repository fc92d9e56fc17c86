// A small PDF 1.4 writer for printable forms: pages of text in the standard Helvetica fonts
// (WinAnsiEncoding, so French accents show), lines and rectangles. No PDF library: the worker's
// bundle has no room for one (docs/decisions-customs.md). Pages are drawn in points from the TOP
// left corner (y grows downwards, as a form is laid out); the writer turns that into PDF's
// bottom-left space. Every byte written is ASCII, so byte offsets are string lengths.
import { pdfString, textWidth } from './win-ansi';

export const A4 = { width: 595, height: 842 } as const;

export type Align = 'left' | 'center' | 'right';

export interface TextStyle {
  /** Font size in points (default 10). */
  size?: number;
  bold?: boolean;
  /** Where `x` is: the text's left end (default), middle or right end. */
  align?: Align;
  /** Gray level, 0 black to 1 white (default 0.1). */
  gray?: number;
}

export interface StrokeStyle {
  /** Line width in points (default 0.8). */
  width?: number;
  gray?: number;
}

export interface RectStyle extends StrokeStyle {
  /** Gray level to fill with; no fill when absent. */
  fill?: number;
  /** Whether to draw the outline (default true). */
  stroke?: boolean;
}

export interface PdfPage {
  readonly width: number;
  readonly height: number;
  /** One line of text whose baseline is `y` points below the top. */
  text(x: number, y: number, text: string, style?: TextStyle): void;
  line(x1: number, y1: number, x2: number, y2: number, style?: StrokeStyle): void;
  /** A rectangle whose top left corner is (x, y). */
  rect(x: number, y: number, width: number, height: number, style?: RectStyle): void;
  /** The page's content stream. */
  content(): string;
}

/** A number as PDF writes it: at most two decimals, no exponent, no trailing zeros. */
export const num = (n: number): string => {
  const fixed = (Math.round(n * 100) / 100).toFixed(2).replace(/\.?0+$/, '');
  return fixed === '-0' ? '0' : fixed;
};

const grayOf = (gray: number | undefined, fallback: number) => num(Math.min(1, Math.max(0, gray ?? fallback)));

export function newPage(size: { width: number; height: number } = A4): PdfPage {
  const ops: string[] = [];
  const pdfY = (y: number) => size.height - y;
  return {
    width: size.width,
    height: size.height,
    text(x, y, text, style = {}) {
      const fontSize = style.size ?? 10;
      const w = style.align && style.align !== 'left' ? textWidth(text, fontSize, style.bold) : 0;
      const left = style.align === 'right' ? x - w : style.align === 'center' ? x - w / 2 : x;
      ops.push(`${grayOf(style.gray, 0.1)} g BT /${style.bold ? 'F2' : 'F1'} ${num(fontSize)} Tf ${num(left)} ${num(pdfY(y))} Td ${pdfString(text)} Tj ET`);
    },
    line(x1, y1, x2, y2, style = {}) {
      ops.push(`${grayOf(style.gray, 0.1)} G ${num(style.width ?? 0.8)} w ${num(x1)} ${num(pdfY(y1))} m ${num(x2)} ${num(pdfY(y2))} l S`);
    },
    rect(x, y, width, height, style = {}) {
      const stroke = style.stroke ?? true;
      if (style.fill === undefined && !stroke) return;
      const paint = style.fill !== undefined ? (stroke ? 'B' : 'f') : 'S';
      const fill = style.fill !== undefined ? `${grayOf(style.fill, 1)} g ` : '';
      ops.push(`${fill}${grayOf(style.gray, 0.1)} G ${num(style.width ?? 0.8)} w ${num(x)} ${num(pdfY(y + height))} ${num(width)} ${num(height)} re ${paint}`);
    },
    content: () => ops.join('\n'),
  };
}

/**
 * `text` broken into lines no wider than `maxWidth` at `size` points, at spaces where it can (a
 * word wider than the line is cut), at most `maxLines` lines: the last one ends with "..." when
 * text was left out.
 */
export function wrapText(text: string, maxWidth: number, size: number, options: { bold?: boolean; maxLines?: number } = {}): string[] {
  const fits = (s: string) => textWidth(s, size, options.bold) <= maxWidth;
  const lines: string[] = [];
  let current = '';
  // Split at spaces only: a no-break space (`50,00 EUR`, `Total :` in French) keeps its words together.
  for (const word of text.split(/[ \t\r\n]+/).filter(Boolean)) {
    const joined = current ? `${current} ${word}` : word;
    if (fits(joined)) {
      current = joined;
      continue;
    }
    if (current) lines.push(current);
    current = word;
    while (!fits(current)) {
      const chars = [...current];
      let cut = chars.length - 1;
      while (cut > 1 && !fits(chars.slice(0, cut).join(''))) cut--;
      lines.push(chars.slice(0, cut).join(''));
      current = chars.slice(cut).join('');
    }
  }
  if (current) lines.push(current);
  const max = options.maxLines ?? Infinity;
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, max);
  kept[max - 1] = fitText(`${kept[max - 1]}...`, maxWidth, size, options.bold);
  return kept;
}

/** `text` as is when it fits in `maxWidth`, else cut and ended with "...". */
export function fitText(text: string, maxWidth: number, size: number, bold = false): string {
  if (textWidth(text, size, bold) <= maxWidth) return text;
  const chars = [...text.replace(/\.\.\.$/, '')];
  while (chars.length > 0 && textWidth(`${chars.join('')}...`, size, bold) > maxWidth) chars.pop();
  return `${chars.join('').trimEnd()}...`;
}

/**
 * The PDF file of `pages`: catalog, page tree, the two Helvetica fonts (WinAnsiEncoding), one
 * content stream per page and the document information; the cross-reference table gives each
 * object's exact byte offset.
 */
export function pdfDocument(pages: readonly PdfPage[], info: { title: string; creator?: string }): Uint8Array<ArrayBuffer> {
  // Object numbers: 1 catalog, 2 pages, 3 regular font, 4 bold font, 5 info, then page and content pairs.
  const pageRef = (i: number) => 6 + 2 * i;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${pageRef(i)} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Title ${pdfString(info.title)} /Creator ${pdfString(info.creator ?? 'parcel-marketplace-api')} >>`,
  ];
  pages.forEach((page, i) => {
    const stream = page.content();
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${num(page.width)} ${num(page.height)}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageRef(i) + 1} 0 R >>`,
      `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    );
  });
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  // Every character is ASCII: one byte each, copied into a buffer of its own.
  return Uint8Array.from(pdf, (ch) => ch.charCodeAt(0));
}
