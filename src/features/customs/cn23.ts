// The printable customs declaration in the style of the postal CN23 form (UPU): sender and
// addressee, the detailed contents with quantity, net weight, value, HS number and origin, total
// gross weight and value, category of item, comments, the certification, date and signature line.
// One A4 page; a long list of items continues on further pages, the totals on the last one.
import type { Locale } from '../../db/schema';
import { formatAmount, roundToMinor, storedMoney } from '../../lib/amount';
import { isCurrencyCode } from '../../lib/currency';
import { A4, fitText, newPage, pdfDocument, wrapText, type PdfPage } from '../../lib/pdf/document';
import { dateText, localDecimal } from '../../lib/locale';
import { cn23Texts, type Cn23Texts } from './cn23.texts';
import type { Cn23Extras, CustomsDeclaration, CustomsItem, CustomsParty, ItemCategory } from './customs.rules';

const M = 36; // page margin
const W = A4.width - 2 * M;
const BOTTOM = A4.height - M - 18; // the footer line sits below
const LABEL = { size: 7, bold: true, gray: 0.35 } as const;
const CELL_PAD = 4;

/** The table's columns: their share of the width and how their values are set. */
const COLUMNS = [
  { key: 'description', width: 205, align: 'left' },
  { key: 'quantity', width: 48, align: 'right' },
  { key: 'netWeight', width: 58, align: 'right' },
  { key: 'value', width: 78, align: 'right' },
  { key: 'hsCode', width: 58, align: 'left' },
  { key: 'origin', width: 76, align: 'left' },
] as const satisfies readonly { key: keyof Cn23Texts; width: number; align: 'left' | 'right' }[];

interface Ctx {
  d: CustomsDeclaration;
  x: Cn23Extras;
  t: Cn23Texts;
  locale: Locale;
}

/** A country as its name in the language with its ISO code, or the code alone where the runtime knows no name. */
export function countryName(code: string, locale: Locale): string {
  try {
    const name = new Intl.DisplayNames([locale], { type: 'region' }).of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}

/** An amount of the declaration's currency as people write it in the language (1 234,50 EUR; 15,000 XOF). */
export function amountText(value: number, currency: string, locale: Locale): string {
  if (!isCurrencyCode(currency)) return `${value} ${currency}`;
  return formatAmount(storedMoney(roundToMinor(value, currency), currency), locale);
}

function header(page: PdfPage, { d, t }: Ctx, continued: boolean): number {
  page.rect(M, M, W, 38, { fill: 0.15, stroke: false });
  page.text(M + 10, M + 25, continued ? `${t.title} (${t.continued})` : t.title, { size: 15, bold: true, gray: 1 });
  page.text(M + W - 10, M + 27, 'CN 23', { size: 20, bold: true, gray: 1, align: 'right' });
  page.text(M, M + 52, t.mayBeOpened, { size: 8, gray: 0.35 });
  page.text(M + W, M + 53, `${t.reservation} ${d.reservationNumber}`, { size: 11, bold: true, align: 'right' });
  return M + 62;
}

function partyBox(page: PdfPage, ctx: Ctx, x: number, y: number, width: number, label: string, party: CustomsParty): void {
  const height = 92;
  page.rect(x, y, width, height);
  page.text(x + CELL_PAD, y + 10, label.toUpperCase(), LABEL);
  const lines = [
    party.address,
    [party.postalCode, party.city].filter(Boolean).join(' ') || null,
    countryName(party.country, ctx.locale),
    party.phone ? `${ctx.t.phone} ${party.phone}` : null,
    party.email ? `${ctx.t.email} ${party.email}` : null,
  ].filter((l): l is string => Boolean(l));
  page.text(x + CELL_PAD, y + 24, fitText(party.name, width - 2 * CELL_PAD, 10, true), { size: 10, bold: true });
  lines.slice(0, 5).forEach((line, i) => page.text(x + CELL_PAD, y + 37 + i * 11, fitText(line, width - 2 * CELL_PAD, 9), { size: 9 }));
}

/** Sender and addressee side by side, then who carries the parcel on which trip. */
function parties(page: PdfPage, ctx: Ctx, y: number): number {
  const half = W / 2;
  partyBox(page, ctx, M, y, half, ctx.t.from, ctx.d.sender);
  partyBox(page, ctx, M + half, y, half, ctx.t.to, ctx.d.recipient);
  const tripY = y + 92;
  page.rect(M, tripY, W, 30);
  const cells = [
    [ctx.t.carriedBy, ctx.x.carrierName, 0, 180],
    [ctx.t.trip, `${ctx.x.departureCity} (${ctx.d.originCountry}) – ${ctx.x.arrivalCity} (${ctx.d.destinationCountry})`, 180, 250],
    [ctx.t.departure, dateText(ctx.x.departureDate, ctx.locale), 430, W - 430],
  ] as const;
  for (const [label, value, dx, width] of cells) {
    if (dx > 0) page.line(M + dx, tripY, M + dx, tripY + 30);
    page.text(M + dx + CELL_PAD, tripY + 10, label.toUpperCase(), LABEL);
    page.text(M + dx + CELL_PAD, tripY + 23, fitText(value, width - 2 * CELL_PAD, 9), { size: 9 });
  }
  return tripY + 30 + 8;
}

function tableHeader(page: PdfPage, { t }: Ctx, y: number): number {
  const height = 24;
  page.rect(M, y, W, height, { fill: 0.9 });
  let x = M;
  for (const col of COLUMNS) {
    if (x > M) page.line(x, y, x, y + height);
    wrapText(t[col.key], col.width - 2 * CELL_PAD, 7, { bold: true, maxLines: 2 }).forEach((line, i) =>
      page.text(x + CELL_PAD, y + 10 + i * 8, line, { size: 7, bold: true, gray: 0.2 }),
    );
    x += col.width;
  }
  return y + height;
}

/** The cells of one item's row, in the order of COLUMNS; the description may take two lines. */
function rowCells({ d, t, locale }: Ctx, item: CustomsItem): string[][] {
  return [
    wrapText(item.description, COLUMNS[0].width - 2 * CELL_PAD, 9, { maxLines: 2 }),
    [localDecimal(item.quantity, locale)],
    [item.weight === null ? '' : localDecimal(item.weight, locale)],
    [item.declaredValue === null ? t.notDeclared : amountText(item.declaredValue, d.currency, locale)],
    [item.hsCode ?? ''],
    [countryName(d.originCountry, locale)],
  ];
}

const rowHeight = (cells: string[][]) => 8 + 11 * Math.max(...cells.map((c) => c.length));

function row(page: PdfPage, cells: string[][], y: number): number {
  const height = rowHeight(cells);
  page.rect(M, y, W, height);
  let x = M;
  cells.forEach((lines, i) => {
    const col = COLUMNS[i];
    if (x > M) page.line(x, y, x, y + height);
    lines.forEach((line, k) => {
      const text = fitText(line, col.width - 2 * CELL_PAD, 9);
      const at = col.align === 'right' ? x + col.width - CELL_PAD : x + CELL_PAD;
      page.text(at, y + 13 + k * 11, text, { size: 9, align: col.align });
    });
    x += col.width;
  });
  return y + height;
}

/** Total gross weight, total value and the carriage price, under the columns they total. */
function totals(page: PdfPage, { d, x, t, locale }: Ctx, y: number): number {
  const height = 30;
  const cells = [
    [t.grossWeight, `${localDecimal(x.grossWeightKg, locale)} kg`, 0, 253],
    [t.totalValue, amountText(d.totalValue, d.currency, locale), 253, 136],
    [t.charges, amountText(x.transportPrice, d.currency, locale), 389, W - 389],
  ] as const;
  page.rect(M, y, W, height);
  for (const [label, value, dx, width] of cells) {
    if (dx > 0) page.line(M + dx, y, M + dx, y + height);
    page.text(M + dx + CELL_PAD, y + 10, label.toUpperCase(), LABEL);
    page.text(M + dx + width - CELL_PAD, y + 24, value, { size: 10, bold: true, align: 'right' });
  }
  return y + height;
}

function checkbox(page: PdfPage, x: number, y: number, checked: boolean): void {
  page.rect(x, y, 8, 8, { width: 0.7 });
  if (!checked) return;
  page.line(x + 1.5, y + 1.5, x + 6.5, y + 6.5, { width: 1.1 });
  page.line(x + 1.5, y + 6.5, x + 6.5, y + 1.5, { width: 1.1 });
}

const CATEGORY_ORDER: readonly ItemCategory[] = ['GIFT', 'COMMERCIAL_SAMPLE', 'DOCUMENTS', 'OTHER'];

/** Box 10 (category of item, checked as decided) beside box 11 (the sender's declarations). */
function categoryAndComments(page: PdfPage, { x, t }: Ctx, y: number): number {
  const height = 74;
  const half = W / 2;
  page.rect(M, y, half, height);
  page.text(M + CELL_PAD, y + 10, t.category.toUpperCase(), LABEL);
  CATEGORY_ORDER.forEach((category, i) => {
    const cx = M + CELL_PAD + (i % 2) * 128;
    const cy = y + 17 + Math.floor(i / 2) * 14;
    checkbox(page, cx, cy, x.category === category);
    page.text(cx + 12, cy + 7.5, t.categories[category], { size: 9 });
  });
  if (x.category === 'OTHER') page.text(M + CELL_PAD, y + 60, fitText(`${t.explanation} ${t.personalEffects}`, half - 2 * CELL_PAD, 8), { size: 8 });

  page.rect(M + half, y, half, height);
  page.text(M + half + CELL_PAD, y + 10, t.comments.toUpperCase(), LABEL);
  const comments = [
    ...(x.noProhibitedItems ? [t.noProhibitedItems] : []),
    ...(x.acknowledgedRestrictions.length ? [`${t.restrictions} ${x.acknowledgedRestrictions.join(', ')}`] : []),
  ];
  const lines = (comments.length ? comments : [t.nothingDeclared]).flatMap((c) => wrapText(c, half - 2 * CELL_PAD, 8));
  lines.slice(0, 5).forEach((line, i) => page.text(M + half + CELL_PAD, y + 22 + i * 10, line, { size: 8 }));
  return y + height;
}

/** The certification, then the date and an empty line for the sender's signature (box 15). */
function signature(page: PdfPage, { d, t, locale }: Ctx, y: number): number {
  const lines = wrapText(t.certification, W - 2 * CELL_PAD, 8);
  const height = 16 + lines.length * 10 + 48;
  page.rect(M, y, W, height);
  lines.forEach((line, i) => page.text(M + CELL_PAD, y + 12 + i * 10, line, { size: 8 }));
  const base = y + 16 + lines.length * 10;
  page.text(M + CELL_PAD, base + 8, t.signature.toUpperCase(), LABEL);
  page.text(M + CELL_PAD, base + 30, `${t.declaredOn} ${dateText(d.declaredAt, locale)}`, { size: 10 });
  page.line(M + 200, base + 36, M + W - 12, base + 36, { width: 0.6, gray: 0.4 });
  return y + height;
}

/** The height of everything under the table: it goes on the table's last page, or on one of its own. */
const closingHeight = (ctx: Ctx) => 30 + 8 + 74 + 8 + (64 + wrapText(ctx.t.certification, W - 2 * CELL_PAD, 8).length * 10);

/** The pages of the form: header, parties and table, continued as needed, the totals and signature at the end. */
function layout(ctx: Ctx): PdfPage[] {
  const pages = [newPage()];
  let page = pages[0];
  let y = tableHeader(page, ctx, parties(page, ctx, header(page, ctx, false)));
  const nextPage = () => {
    page = newPage();
    pages.push(page);
    y = tableHeader(page, ctx, header(page, ctx, true));
  };
  for (const item of ctx.d.items) {
    const cells = rowCells(ctx, item);
    if (y + rowHeight(cells) > BOTTOM) nextPage();
    y = row(page, cells, y);
  }
  if (y + closingHeight(ctx) > BOTTOM) {
    page = newPage();
    pages.push(page);
    y = header(page, ctx, true);
  }
  y = totals(page, ctx, y) + 8;
  y = categoryAndComments(page, ctx, y) + 8;
  signature(page, ctx, y);
  pages.forEach((p, i) => p.text(M + W, A4.height - M + 4, `${ctx.d.reservationNumber} · CN 23 · ${ctx.t.page(i + 1, pages.length)}`, { size: 7, gray: 0.45, align: 'right' }));
  return pages;
}

/** The customs declaration as a printable PDF in `locale`. */
export function cn23Pdf(declaration: CustomsDeclaration, extras: Cn23Extras, locale: Locale): Uint8Array<ArrayBuffer> {
  const t = cn23Texts(locale);
  const pages = layout({ d: declaration, x: extras, t, locale });
  return pdfDocument(pages, { title: `${t.title} CN 23 ${declaration.reservationNumber}` });
}
