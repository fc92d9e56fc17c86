// The PDF writers: the receipt's (src/lib/pdf.ts) and the forms' (src/lib/pdf/document.ts, the
// CN23 customs declaration): structurally valid PDF 1.4 (every cross-reference offset points at
// its object, the stream lengths are exact) whose text survives escaping and is measured right.
import { describe, expect, it } from 'vitest';
import { pdfString, textPdf } from '../src/lib/pdf';
import { fitText, newPage, num, pdfDocument, wrapText } from '../src/lib/pdf/document';
import { textWidth } from '../src/lib/pdf/win-ansi';
import { cn23Pdf } from '../src/features/customs/cn23';
import { itemCategoryOf } from '../src/features/customs/customs.rules';

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

  it('wraps a line too long for the page at its spaces instead of running off it, and cuts it after four lines', () => {
    const shownOf = (pdf: string) => [...pdf.matchAll(/Td \(([^)]*)\) Tj/g)].map((m) => m[1]);
    const sentence = 'Réservation R-2026-0001 : blocage de 50,00\u00a0EUR sur la carte levé, rien n’a été débité. '.repeat(2).trim();
    const wrapped = shownOf(decode(textPdf('t', [{ text: sentence }, { text: 'after' }])));
    expect(wrapped).toHaveLength(3);
    expect(wrapped.at(-1)).toBe('after');
    // Nothing lost, the no-break space kept between the amount and its currency.
    expect(wrapped.slice(0, 2).join(' ')).toBe(pdfString(sentence).slice(1, -1));

    const endless = shownOf(decode(textPdf('t', [{ text: 'x'.repeat(500) }])));
    expect(endless).toHaveLength(4);
    expect(endless[3].endsWith('...')).toBe(true);
  });
});

/** Every object the cross-reference table lists starts at its offset; every stream's /Length is its byte count. */
function checkStructure(pdf: string) {
  expect(pdf.startsWith('%PDF-1.4\n')).toBe(true);
  expect(pdf.endsWith('%%EOF\n')).toBe(true);
  const startxref = Number(pdf.match(/startxref\n(\d+)\n%%EOF\n$/)![1]);
  const [, first, count] = pdf.slice(startxref).match(/^xref\n(\d+) (\d+)\n/)!;
  expect(Number(first)).toBe(0);
  const entries = pdf.slice(startxref).split('\n').slice(3, 2 + Number(count));
  expect(entries).toHaveLength(Number(count) - 1);
  entries.forEach((entry, i) => {
    expect(entry).toMatch(/^\d{10} 00000 n $/);
    const offset = Number(entry.slice(0, 10));
    expect(pdf.slice(offset, offset + `${i + 1} 0 obj\n`.length)).toBe(`${i + 1} 0 obj\n`);
  });
  expect(pdf).toContain(`trailer\n<< /Size ${count} /Root 1 0 R /Info 5 0 R >>`);
  const streams = [...pdf.matchAll(/<< \/Length (\d+) >>\nstream\n([\s\S]*?)\nendstream/g)];
  for (const [, length, body] of streams) expect(body.length).toBe(Number(length));
  return { objects: Number(count) - 1, streams: streams.map((m) => m[2]) };
}

describe('pdfDocument and pages (lib/pdf/document.ts)', () => {
  it('writes pages from the top left corner: text, lines and rectangles in PDF space, with exact offsets', () => {
    const page = newPage();
    page.text(36, 50, 'Déclaration (1)', { size: 12, bold: true });
    page.text(559, 60, 'AB', { size: 10, align: 'right' });
    page.line(36, 100, 559, 100, { width: 0.5 });
    page.rect(36, 110, 100, 20, { fill: 0.9 });
    page.rect(36, 140, 100, 20, { fill: 0.15, stroke: false });
    page.rect(36, 170, 100, 20);
    const second = newPage();
    second.text(36, 36, 'page 2');
    const pdf = decode(pdfDocument([page, second], { title: 'Form 7' }));
    const { objects, streams } = checkStructure(pdf);
    expect(objects).toBe(9);
    expect(pdf).toContain('<< /Type /Pages /Kids [6 0 R 8 0 R] /Count 2 >>');
    expect(pdf).toContain('/BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding');
    expect(pdf).toContain('/Title (Form 7)');
    const ops = streams[0].split('\n');
    expect(ops[0]).toBe('0.1 g BT /F2 12 Tf 36 792 Td (D\\351claration \\(1\\)) Tj ET');
    // "AB" is 667 + 667 thousandths of 10 pt wide: right-aligned at 559 it starts at 545.66.
    expect(ops[1]).toBe('0.1 g BT /F1 10 Tf 545.66 782 Td (AB) Tj ET');
    expect(ops[2]).toBe('0.1 G 0.5 w 36 742 m 559 742 l S');
    expect(ops[3]).toBe('0.9 g 0.1 G 0.8 w 36 712 100 20 re B');
    expect(ops[4]).toBe('0.15 g 0.1 G 0.8 w 36 682 100 20 re f');
    expect(ops[5]).toBe('0.1 G 0.8 w 36 652 100 20 re S');
    expect(streams[1]).toBe('0.1 g BT /F1 10 Tf 36 806 Td (page 2) Tj ET');
  });

  it('measures text with the Helvetica widths, accents included', () => {
    expect(textWidth('Hello', 10)).toBeCloseTo(22.78, 5);
    expect(textWidth('Hello', 10, true)).toBeCloseTo(24.45, 5);
    expect(textWidth('é', 1000)).toBe(556);
    expect(textWidth('€', 1000)).toBe(556);
    expect(num(12.345)).toBe('12.35');
    expect(num(-0.001)).toBe('0');
    expect(num(3)).toBe('3');
  });

  it('wraps at spaces, cuts a word too long for the line, ends with "..." past the last line allowed', () => {
    const width = textWidth('aaaa bbbb', 10);
    expect(wrapText('aaaa bbbb cccc dddd', width, 10)).toEqual(['aaaa bbbb', 'cccc dddd']);
    const cut = wrapText('x'.repeat(40), textWidth('x'.repeat(10), 10), 10);
    expect(cut.map((l) => l.length)).toEqual([10, 10, 10, 10]);
    const two = wrapText('one two three four five six seven', textWidth('one two', 10), 10, { maxLines: 2 });
    expect(two).toHaveLength(2);
    expect(two[1].endsWith('...')).toBe(true);
    expect(textWidth(two[1], 10)).toBeLessThanOrEqual(textWidth('one two', 10));
    expect(fitText('short', 100, 10)).toBe('short');
    const fitted = fitText('a rather long line of text', textWidth('a rather', 10), 10);
    expect(fitted).toBe('a rath...');
  });
});

describe('the CN23 form (features/customs/cn23.ts)', () => {
  const declaration = {
    reservationNumber: 'PX-TEST0001',
    sender: { name: 'Léa Martin', email: 'lea@example.com', phone: null, address: null, city: 'Paris', postalCode: null, country: 'FR' },
    recipient: { name: 'Awa Diop', email: null, phone: '+221 77 123 45 67', address: '12 rue Carnot', city: 'Dakar', postalCode: '10200', country: 'SN' },
    originCountry: 'FR',
    destinationCountry: 'SN',
    items: [{ description: 'Livres scolaires', quantity: 3, weight: 1.2, declaredValue: 45, hsCode: '4901' }],
    totalValue: 45,
    currency: 'XOF',
    declaredAt: '2026-11-27T09:00:00.000Z',
  };
  const extras = {
    carrierName: 'Carla Carrier',
    departureCity: 'Paris',
    arrivalCity: 'Dakar',
    departureDate: '2026-12-07',
    grossWeightKg: 2.5,
    transportPrice: 15_000,
    category: 'DOCUMENTS' as const,
    noProhibitedItems: true,
    acknowledgedRestrictions: ['MEDICINES'],
  };

  it('is one valid page with every box, the category checked, amounts and dates as the language writes them', () => {
    const fr = decode(cn23Pdf(declaration, extras, 'fr'));
    const { streams } = checkStructure(fr);
    expect(streams).toHaveLength(1);
    for (const text of ['(D\\311CLARATION EN DOUANE) Tj', '(CN 23) Tj', '(N\\260 de r\\351servation PX-TEST0001) Tj', '(S\\351n\\351gal \\(SN\\)) Tj', '(15\\240000\\240XOF) Tj', '(D\\351clar\\351 le 27/11/2026) Tj', '(07/12/2026) Tj', '(4901) Tj', 'MEDICINES']) {
      expect(streams[0]).toContain(text);
    }
    // Box 10: the checked box of "Documents" (the third) has its cross; the others are empty.
    expect(streams[0].match(/ l S/g)!.length).toBeGreaterThan(2);
    const en = decode(cn23Pdf(declaration, extras, 'en'));
    checkStructure(en);
    expect(en).toContain('(Declared on 2026-11-27) Tj');
    expect(en).toContain('(Senegal \\(SN\\)) Tj');
  });

  it('continues a long list of items on further pages, each numbered', () => {
    const many = { ...declaration, items: Array.from({ length: 20 }, (_, i) => ({ description: `Item ${i + 1} ${'with a long description '.repeat(4)}`, quantity: 1, weight: 0.1, declaredValue: 10 })) };
    const pdf = decode(cn23Pdf(many, extras, 'en'));
    const { streams } = checkStructure(pdf);
    expect(streams.length).toBe(2);
    expect(streams[0]).toContain('Page 1 of 2');
    expect(streams[1]).toContain('Page 2 of 2');
    expect(streams[1]).toContain('(CUSTOMS DECLARATION \\(continued\\)) Tj');
    expect(streams[1]).toContain('(Item 20 with a long description with a long description with a long) Tj'.slice(0, 20));
  });

  it('box 10: documents or gift only when every item says so, else other', () => {
    expect(itemCategoryOf(['DOCUMENTS', 'DOCUMENTS'])).toBe('DOCUMENTS');
    expect(itemCategoryOf(['GIFTS'])).toBe('GIFT');
    expect(itemCategoryOf(['GIFTS', 'BOOKS'])).toBe('OTHER');
    expect(itemCategoryOf([null])).toBe('OTHER');
    expect(itemCategoryOf([])).toBe('OTHER');
  });
});
