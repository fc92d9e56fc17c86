// The receipt PDF writer (src/lib/pdf.ts): a structurally valid PDF 1.4 (every cross-reference
// offset points at its object, the stream length is exact) whose text survives escaping.
import { describe, expect, it } from 'vitest';
import { pdfString, textPdf } from '../src/lib/pdf';

const decode = (bytes: Uint8Array) => new TextDecoder('latin1').decode(bytes);

describe('textPdf', () => {
  it('writes a PDF whose cross-reference table and stream length are exact', () => {
    const pdf = decode(textPdf('Receipt 7', [{ text: 'Payment receipt', bold: true, size: 20 }, { text: 'Amount: 50.00 EUR', gapBefore: 10 }]));
    expect(pdf.startsWith('%PDF-1.4\n')).toBe(true);
    expect(pdf.endsWith('%%EOF\n')).toBe(true);
    const startxref = Number(pdf.match(/startxref\n(\d+)\n%%EOF\n$/)![1]);
    expect(pdf.slice(startxref, startxref + 4)).toBe('xref');
    const [, first, count] = pdf.slice(startxref).match(/^xref\n(\d+) (\d+)\n/)!;
    expect([Number(first), Number(count)]).toEqual([0, 8]);
    const entries = pdf.slice(startxref).split('\n').slice(3, 3 + 7);
    entries.forEach((entry, i) => {
      expect(entry).toMatch(/^\d{10} 00000 n $/);
      const offset = Number(entry.slice(0, 10));
      expect(pdf.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
    });
    const [, length, body] = pdf.match(/<< \/Length (\d+) >>\nstream\n([\s\S]*?)\nendstream/)!;
    expect(body.length).toBe(Number(length));
    expect(body).toContain('BT /F2 20 Tf 50 780 Td (Payment receipt) Tj ET');
    expect(body).toContain('BT /F1 11 Tf 50 740 Td (Amount: 50.00 EUR) Tj ET');
    expect(pdf).toContain('/Title (Receipt 7)');
  });

  it('escapes delimiters, encodes Latin-1 and the euro sign, and replaces what Helvetica cannot show', () => {
    expect(pdfString('a (b) \\ c')).toBe('(a \\(b\\) \\\\ c)');
    expect(pdfString('Léa Müller 12 €')).toBe('(L\\351a M\\374ller 12 \\200)');
    expect(pdfString('李 ok\n')).toBe('(? ok?)');
  });

  it('cuts a line too long for the page instead of running off it', () => {
    const pdf = decode(textPdf('t', [{ text: 'x'.repeat(500) }]));
    const shown = pdf.match(/Td \((x+)\.\.\.\) Tj/)![1];
    expect(shown.length).toBeLessThan(100);
  });
});
