// A one-page text PDF (PDF 1.4) in the standard Helvetica fonts, which every reader has: all a
// receipt needs. Written by hand rather than with pdf-lib, whose font metrics and compression
// code were about 180 KiB of the gzipped worker (a third of it) for this one page; see
// docs/decisions-proof.md. Drawn with the forms' writer (pdf/document.ts).

import { A4, newPage, pdfDocument, wrapText } from './pdf/document';
import { pdfString } from './pdf/win-ansi';

export { pdfString };

export interface PdfLine {
  text: string;
  /** Font size in points (default 11). */
  size?: number;
  bold?: boolean;
  /** Extra space above the line, in points. */
  gapBefore?: number;
}

const PAGE = { margin: 50, top: 62 }; // A4; the first baseline 62 pt below the top

/** One A4 page of left-aligned lines, top to bottom, with a document title; a line too long for the page wraps (cut after four lines). */
export function textPdf(title: string, lines: PdfLine[]): Uint8Array {
  const page = newPage(A4);
  let y = PAGE.top;
  for (const line of lines) {
    const size = line.size ?? 11;
    y += line.gapBefore ?? 0;
    // At most four lines, so that no value can push the page's end off it.
    const parts = wrapText(line.text, A4.width - 2 * PAGE.margin, size, { bold: line.bold, maxLines: 4 });
    parts.forEach((part, i) => {
      page.text(PAGE.margin, y, part, { size, bold: line.bold });
      y += i < parts.length - 1 ? size + 3 : size + 10; // a wrapped line's parts sit closer than two lines
    });
  }
  return pdfDocument([page], { title });
}
