// File uploads: the type comes from the bytes and must suit the purpose, executables and files
// over 10 MB are refused, and files are read back only by those allowed to see them.
import { env, exports } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '../src/db/client';
import { files } from '../src/db/schema';
import { detectContentType } from '../src/features/files/files.rules';
import { pdfActiveContent } from '../src/features/files/pdf-active-content';
import { ascii85Decode, asciiHexDecode, decodeFilter, lzwDecode, runLengthDecode, unpredict } from '../src/features/files/pdf-filters';
import { textPdf } from '../src/lib/pdf';
import { BASE, call, errorBody, get } from './helpers/http';
import { type TestUser, aUser, tokenFor, aCarrier, anAdmin, aReservation, aSuperAdmin } from './helpers/factories';

const db = database(env.DB);
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52];
const JPEG = [0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46];
const PDF = [...'%PDF-1.7\n'].map((c) => c.charCodeAt(0));
const WEBP = [...'RIFF'].map((c) => c.charCodeAt(0)).concat([0x24, 0, 0, 0], [...'WEBPVP8 '].map((c) => c.charCodeAt(0)));
const EXE = [0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff, 0, 0];

const bytes = (head: number[], total = 256) => {
  const out = new Uint8Array(total);
  out.set(head);
  return out;
};

function form(data: Uint8Array, fields: Record<string, string>, name = 'id.pdf', type = 'application/pdf') {
  const body = new FormData();
  body.append('file', new File([data], name, { type }));
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  return body;
}

function upload(user: TestUser | null, part: { data: Uint8Array; name: string; type: string }, fields: Record<string, string>) {
  return call('POST', '/v1/api/files', { raw: form(part.data, fields, part.name, part.type), token: user?.token });
}

const latin = (text: string) => new Uint8Array([...text].map((ch) => ch.charCodeAt(0)));
const fromLatin = (data: Uint8Array) => Array.from(data, (b) => String.fromCharCode(b)).join('');
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
};
const deflate = async (data: Uint8Array) =>
  new Uint8Array(await new Response(new Blob([data]).stream().pipeThrough(new CompressionStream('deflate'))).arrayBuffer());
const hex = (data: Uint8Array) => `${Array.from(data, (b) => b.toString(16).padStart(2, '0')).join('')}>`;
/** A one-stream PDF: `head` is the object header and stream dictionary. */
const withStream = (head: string, data: Uint8Array) => concat(latin(`%PDF-1.7\n${head}\nstream\n`), data, latin('\nendstream\nendobj\n%%EOF\n'));

/** Reads a file back as bytes (the JSON helpers would read binary bodies as text). */
async function download(path: string, user: TestUser) {
  const res = await exports.default.fetch(new Request(`${BASE}${path}`, { headers: { Authorization: `Bearer ${user.token}` } }));
  const body = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, type: res.headers.get('Content-Type'), body };
}

describe('content detection', () => {
  it.each([
    [PNG, 'image/png'],
    [JPEG, 'image/jpeg'],
    [WEBP, 'image/webp'],
    [PDF, 'application/pdf'],
    [EXE, 'executable'],
    [[0x7f, 0x45, 0x4c, 0x46, 2, 1], 'executable'],
    [[...'#!/bin/sh'].map((c) => c.charCodeAt(0)), 'executable'],
    [[...'hello world'].map((c) => c.charCodeAt(0)), null],
    [[], null],
  ])('%j is %s', (head, expected) => {
    expect(detectContentType(new Uint8Array(head))).toBe(expected);
  });
});

describe('POST /files', () => {
  it('stores a PNG renamed .pdf as PNG for a KYC document, with a random key and the bytes in R2', async () => {
    const user = await aUser();
    const data = bytes(PNG);
    const res = await upload(user, { data, name: 'passport.pdf', type: 'application/pdf' }, { purpose: 'KYC_DOCUMENT' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ purpose: 'KYC_DOCUMENT', contentType: 'image/png', size: 256, originalName: 'passport.pdf' });
    expect(res.body.url).toBe(`/v1/api/files/${res.body.id}`);
    const [row] = await db.select().from(files).where(eq(files.id, res.body.id));
    expect(row.storageKey).toMatch(/^kyc-document\/[0-9a-f-]{36}$/);
    expect(row.storageKey).not.toContain('passport');
    const object = await env.UPLOADS.get(row.storageKey);
    expect(object?.httpMetadata?.contentType).toBe('image/png');
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(data);

    const back = await download(`/v1/api/files/${res.body.id}`, user);
    expect(back).toEqual({ status: 200, type: 'image/png', body: data });
  });

  it('refuses a PDF as an avatar (images only) whatever it is called', async () => {
    const user = await aUser();
    const res = await upload(user, { data: bytes(PDF), name: 'me.png', type: 'image/png' }, { purpose: 'AVATAR' });
    expect(res.status).toBe(415);
    expect(errorBody(res)).toEqual({
      status: 415,
      errorCode: 'INVALID_ARGUMENT',
      message: 'A file of purpose AVATAR must be one of image/jpeg, image/png, image/webp; this file is application/pdf',
      path: '/v1/api/files',
      suggestions: ['Upload a JPEG, PNG or WEBP image, or a PDF document'],
    });
  });

  it('refuses an executable even when it claims to be an image', async () => {
    const user = await aUser();
    const res = await upload(user, { data: bytes(EXE), name: 'cat.jpg', type: 'image/jpeg' }, { purpose: 'DISPUTE_EVIDENCE' });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ errorCode: 'INVALID_ARGUMENT', message: 'Executable files are not accepted' });
    const text = await upload(user, { data: new TextEncoder().encode('just text'), name: 'a.pdf', type: 'application/pdf' }, { purpose: 'KYC_DOCUMENT' });
    expect(text.status).toBe(415);
  });

  it('refuses a PDF that would act when opened (script, launch, embedded file), even escaped or compressed; accepts a passive one', async () => {
    const user = await aUser();
    const script = latin('%PDF-1.7\n1 0 obj << /Type /Catalog /Names << /JavaScript 2 0 R >> >> endobj\n%%EOF\n');
    const escaped = latin('%PDF-1.7\n1 0 obj << /Type /Catalog /Names << /J#61vaScript 2 0 R >> >> endobj\n%%EOF\n');
    const hidden = withStream('2 0 obj << /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode >>', await deflate(latin('3 0 << /S /Launch /F (cmd.exe) >>')));
    const passive = withStream('4 0 obj << /Length 44 /Filter /FlateDecode >>', await deflate(latin('BT /F1 12 Tf 72 712 Td (Passport scan) Tj ET')));
    for (const [data, name] of [[script, 'JavaScript'], [escaped, 'JavaScript'], [hidden, 'Launch']] as const) {
      const res = await upload(user, { data, name: 'id.pdf', type: 'application/pdf' }, { purpose: 'KYC_DOCUMENT' });
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({ errorCode: 'INVALID_ARGUMENT', message: `PDF documents with active content are not accepted (found /${name})` });
    }
    expect(await pdfActiveContent(passive)).toBeNull();
    const ok = await upload(user, { data: passive, name: 'id.pdf', type: 'application/pdf' }, { purpose: 'KYC_DOCUMENT' });
    expect(ok.status).toBe(201);
    const stored = await db.select().from(files).where(eq(files.ownerId, user.id));
    expect(stored.map((f) => f.id)).toEqual([ok.body.id]);
  });

  it('refuses /JavaScript ended by NUL and /OpenAction in an ASCIIHex+Flate object stream (415, the error body, nothing stored); a real passive PDF passes', async () => {
    const user = await aUser();
    const nul = latin('%PDF-1.7\n1 0 obj << /Type /Catalog /Names << /JavaScript\0 2 0 R >> >> endobj\n%%EOF\n');
    const objects = await deflate(latin('3 0 << /Type /Catalog /OpenAction 5 0 R >>'));
    const hexFlate = withStream(`2 0 obj << /Type /ObjStm /N 1 /First 4 /Filter [/ASCIIHexDecode /FlateDecode] /Length ${objects.length * 2 + 1} >>`, latin(hex(objects)));
    for (const [data, name] of [[nul, 'JavaScript'], [hexFlate, 'OpenAction']] as const) {
      const res = await upload(user, { data, name: 'id.pdf', type: 'application/pdf' }, { purpose: 'KYC_DOCUMENT' });
      expect(res.status).toBe(415);
      expect(errorBody(res)).toEqual({
        status: 415,
        errorCode: 'INVALID_ARGUMENT',
        message: `PDF documents with active content are not accepted (found /${name})`,
        path: '/v1/api/files',
        suggestions: ['Upload a JPEG, PNG or WEBP image, or a PDF document'],
      });
    }
    const french = await call('POST', '/v1/api/files', { raw: form(nul, { purpose: 'KYC_DOCUMENT' }), token: user.token, headers: { 'Accept-Language': 'fr' } });
    expect(french.body.message).toBe('Les documents PDF au contenu actif ne sont pas acceptés (trouvé : /JavaScript)');
    expect(await db.select().from(files).where(eq(files.ownerId, user.id))).toEqual([]);

    const receipt = textPdf('Reçu', [{ text: 'Passeport de Awa Diop, scanné le 7 décembre' }]);
    const ok = await upload(user, { data: receipt, name: 'id.pdf', type: 'application/pdf' }, { purpose: 'KYC_DOCUMENT' });
    expect(ok.status).toBe(201);
  });

  it('accepts exactly 10 MB and refuses 10 MB + 1 byte with the error body', async () => {
    const user = await aUser();
    const max = 10 * 1024 * 1024;
    const ok = await upload(user, { data: bytes(JPEG, max), name: 'big.jpg', type: 'image/jpeg' }, { purpose: 'PARCEL_IMAGE' });
    expect(ok.status).toBe(201);
    expect(ok.body.size).toBe(max);
    const tooBig = await upload(user, { data: bytes(JPEG, max + 1), name: 'big.jpg', type: 'image/jpeg' }, { purpose: 'PARCEL_IMAGE' });
    expect(tooBig.status).toBe(413);
    expect(errorBody(tooBig)).toEqual({
      status: 413,
      errorCode: 'INVALID_ARGUMENT',
      message: 'File is larger than 10485760 bytes (10 MB)',
      path: '/v1/api/files',
      suggestions: ['Upload a file of at most 10 MB'],
    });
  });

  it('validates the form: purpose, file part, media type, authentication', async () => {
    const user = await aUser();
    const badPurpose = await upload(user, { data: bytes(PNG), name: 'a.png', type: 'image/png' }, { purpose: 'SELFIE' });
    expect(badPurpose.status).toBe(400);
    expect(badPurpose.body.errorCode).toBe('VALIDATION_ERROR');
    expect(badPurpose.body.fieldErrors[0]).toMatchObject({ field: 'purpose', rejectedValue: 'SELFIE' });

    const form = new FormData();
    form.append('purpose', 'AVATAR');
    const noFile = await call('POST', '/v1/api/files', { raw: form, token: user.token });
    expect(noFile.status).toBe(400);
    expect(noFile.body.fieldErrors).toEqual([{ field: 'file', message: 'A file part named "file" is required', rejectedValue: null }]);

    const json = await call('POST', '/v1/api/files', { body: { purpose: 'AVATAR' }, token: user.token });
    expect(json.status).toBe(415);
    expect(json.body.errorCode).toBe('INVALID_ARGUMENT');

    const anonymous = await upload(null, { data: bytes(PNG), name: 'a.png', type: 'image/png' }, { purpose: 'AVATAR' });
    expect(anonymous.status).toBe(401);
  });

  it('a reservation file must come from one of its parties', async () => {
    const [sender, carrier, stranger] = await Promise.all([aUser(), aCarrier(), aUser()]);
    const { reservation: r } = await aReservation({ sender, carrier });
    const img = { data: bytes(JPEG), name: 'parcel.jpg', type: 'image/jpeg' };
    const denied = await upload(stranger, img, { purpose: 'PARCEL_IMAGE', reservationId: String(r.id) });
    expect(denied.status).toBe(403);
    const missing = await upload(sender, img, { purpose: 'PARCEL_IMAGE', reservationId: '999999' });
    expect(missing.status).toBe(404);
    const wrongPurpose = await upload(sender, img, { purpose: 'AVATAR', reservationId: String(r.id) });
    expect(wrongPurpose.status).toBe(400);
    expect(wrongPurpose.body.fieldErrors[0].field).toBe('reservationId');
  });
});

describe('GET /files/{id}', () => {
  const kycDocument = async (owner: TestUser) =>
    `/v1/api/files/${(await upload(owner, { data: bytes(PDF), name: 'id.pdf', type: 'application/pdf' }, { purpose: 'KYC_DOCUMENT' })).body.id}`;

  it('a stranger reading a KYC document gets 403 ACCESS_DENIED', async () => {
    const [owner, stranger] = await Promise.all([aUser(), aUser()]);
    const path = await kycDocument(owner);
    const res = await get(path, { token: stranger.token });
    expect(res.status).toBe(403);
    expect(errorBody(res)).toEqual({
      status: 403,
      errorCode: 'ACCESS_DENIED',
      message: 'You are not allowed to access this resource',
      path,
      suggestions: [],
    });
  });

  it('a super-administrator, who reviews KYC, reads a KYC document, bytes and type as uploaded', async () => {
    const [owner, superAdmin] = await Promise.all([aUser(), aSuperAdmin()]);
    const bySuperAdmin = await download(await kycDocument(owner), superAdmin);
    expect(bySuperAdmin).toEqual({ status: 200, type: 'application/pdf', body: bytes(PDF) });
  });

  it('an administrator who is not a super-administrator is refused identity documents: 403', async () => {
    const [owner, admin] = await Promise.all([aUser(), anAdmin()]);
    const path = await kycDocument(owner);
    const res = await get(path, { token: admin.token });
    expect(res.status).toBe(403);
    expect(res.body.errorCode).toBe('ACCESS_DENIED');
    // An agency's registration documents likewise: its owner and super-administrators only.
    const agencyOwner = await aUser();
    const [doc] = await db
      .insert(files)
      .values({ ownerId: agencyOwner.id, purpose: 'AGENCY_DOCUMENT', storageKey: `agency-document/${crypto.randomUUID()}`, contentType: 'application/pdf', sizeBytes: 4 })
      .returning();
    expect((await get(`/v1/api/files/${doc.id}`, { token: admin.token })).status).toBe(403);
  });

  it('files are served so that none can run as a page of the service: CSP sandbox, nosniff, PDFs as attachments, images inline', async () => {
    const owner = await aUser();
    const pdf = await exports.default.fetch(new Request(`${BASE}${await kycDocument(owner)}`, { headers: { Authorization: `Bearer ${owner.token}` } }));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('Content-Security-Policy')).toBe('sandbox');
    expect(pdf.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(pdf.headers.get('Content-Disposition')).toBe('attachment');
    await pdf.arrayBuffer();
    const avatar = await upload(owner, { data: bytes(PNG), name: 'me.png', type: 'image/png' }, { purpose: 'AVATAR' });
    const png = await exports.default.fetch(new Request(`${BASE}/v1/api/files/${avatar.body.id}`, { headers: { Authorization: `Bearer ${owner.token}` } }));
    expect(png.headers.get('Content-Security-Policy')).toBe('sandbox');
    expect(png.headers.get('Content-Disposition')).toBe('inline');
    await png.arrayBuffer();
  });

  it('the owner reads their KYC document', async () => {
    const owner = await aUser();
    expect((await download(await kycDocument(owner), owner)).status).toBe(200);
  });

  it('parcel images go to the reservation parties, not to strangers', async () => {
    const [sender, carrier, stranger] = await Promise.all([aUser(), aCarrier(), aUser()]);
    const { reservation: r } = await aReservation({ sender, carrier });
    const up = await upload(sender, { data: bytes(WEBP), name: 'p.webp', type: 'image/webp' }, { purpose: 'PARCEL_IMAGE', reservationId: String(r.id) });
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({ contentType: 'image/webp', reservationId: r.id });
    const path = `/v1/api/files/${up.body.id}`;
    expect((await download(path, carrier)).status).toBe(200);
    expect((await get(path, { token: stranger.token })).status).toBe(403);
  });

  it("the carrying agency's staff read its reservations' parcel images and payment status", async () => {
    const [sender, carrier, agencyOwner] = await Promise.all([aUser(), aCarrier(), aUser()]);
    const agency = await call('POST', '/v1/api/agencies', { body: { name: 'Files Agency' }, token: agencyOwner.token });
    const { reservation: r } = await aReservation({ sender, carrier, agencyId: agency.body.id });
    const up = await upload(sender, { data: bytes(JPEG), name: 'p.jpg', type: 'image/jpeg' }, { purpose: 'PARCEL_IMAGE', reservationId: String(r.id) });
    // The owner's next token carries the role granted with the agency (as after a refresh).
    const owner = { ...agencyOwner, token: await tokenFor(agencyOwner.id, ['ROLE_CLIENT', 'ROLE_AGENCY_OWNER']) };
    expect((await download(`/v1/api/files/${up.body.id}`, owner)).status).toBe(200);
    // The same rule for the reservation's payment status (it used to admit only sender and carrier).
    const status = await get(`/v1/api/payments/${r.id}/status`, { token: owner.token });
    expect(status.status).toBe(200);
    expect(status.body).toEqual({ reservationId: r.id, paymentId: null, paymentStatus: null, reservationStatus: 'PENDING_PAYMENT' });
    expect((await get(`/v1/api/payments/${r.id}/status`, { token: (await aUser()).token })).status).toBe(403);
  });

  const avatarOf = async (owner: TestUser) => (await upload(owner, { data: bytes(PNG), name: 'me.png', type: 'image/png' }, { purpose: 'AVATAR' })).body.id;

  it('avatars are readable by any signed-in user', async () => {
    const [owner, other] = await Promise.all([aUser(), aUser()]);
    expect((await download(`/v1/api/files/${await avatarOf(owner)}`, other)).status).toBe(200);
  });

  it('reading a file needs a token, even an avatar: 401', async () => {
    const owner = await aUser();
    expect((await get(`/v1/api/files/${await avatarOf(owner)}`)).status).toBe(401);
  });

  it('an unknown file is 404; a non-numeric id 400 TYPE_MISMATCH', async () => {
    const other = await aUser();
    expect((await get('/v1/api/files/999999', { token: other.token })).status).toBe(404);
    expect((await get('/v1/api/files/abc', { token: other.token })).body.errorCode).toBe('TYPE_MISMATCH');
  });
});

// Encoders written from ISO 32000-1 §7.4, to feed the decoders what a PDF writer produces.
function ascii85(data: Uint8Array): string {
  let out = '';
  for (let i = 0; i < data.length; i += 4) {
    const chunk = data.subarray(i, i + 4);
    const value = [0, 1, 2, 3].reduce((v, k) => v * 256 + (chunk[k] ?? 0), 0);
    if (chunk.length === 4 && value === 0) {
      out += 'z';
      continue;
    }
    const digits = [4, 3, 2, 1, 0].map((p) => String.fromCharCode(Math.floor(value / 85 ** p) % 85 + 33)).join('');
    out += digits.slice(0, chunk.length + 1);
  }
  return `${out}~>`;
}

/** LZW codes (9 to 12 bits, EarlyChange 1), clearing the table when it is full. */
function lzw(data: Uint8Array): Uint8Array {
  const codes = [256];
  let table = new Map<string, number>();
  let w = '';
  for (const b of data) {
    const wc = w + String.fromCharCode(b);
    if (w === '' || table.has(wc)) {
      w = wc;
      continue;
    }
    codes.push(w.length === 1 ? w.charCodeAt(0) : table.get(w)!);
    table.set(wc, 258 + table.size);
    if (table.size === 4094 - 258) [table, w] = [new Map(), String.fromCharCode(b)];
    else w = String.fromCharCode(b);
    if (table.size === 0) codes.push(256);
  }
  codes.push(w.length === 1 ? w.charCodeAt(0) : table.get(w)!, 257);
  // Pack with the width a reader has when it reads each code (it adds an entry per code but the first).
  const out: number[] = [];
  let [acc, bits, width, entries] = [0, 0, 9, -1];
  for (const code of codes) {
    acc = acc * 2 ** width + code;
    bits += width;
    while (bits >= 8) {
      out.push(Math.floor(acc / 2 ** (bits - 8)) & 0xff);
      bits -= 8;
      acc %= 2 ** bits;
    }
    if (code === 256) [width, entries] = [9, -1];
    else if (++entries > 0 && 258 + entries + 1 >= 2 ** width && width < 12) width++;
  }
  if (bits > 0) out.push((acc << (8 - bits)) & 0xff);
  return new Uint8Array(out);
}

/** PNG predictors, a filter type per row cycling through None, Sub, Up, Average, Paeth. */
function pngPredict(data: Uint8Array, rowBytes: number, bpp: number): Uint8Array {
  const rows = data.length / rowBytes;
  const out = new Uint8Array(rows * (rowBytes + 1));
  for (let r = 0; r < rows; r++) {
    const type = r % 5;
    out[r * (rowBytes + 1)] = type;
    for (let i = 0; i < rowBytes; i++) {
      const at = (dr: number, di: number) => (r + dr >= 0 && i + di >= 0 ? data[(r + dr) * rowBytes + i + di] : 0);
      const [a, b, c] = [at(0, -bpp), at(-1, 0), at(-1, -bpp)];
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const predicted = [0, a, b, (a + b) >> 1, paeth][type];
      out[r * (rowBytes + 1) + 1 + i] = (data[r * rowBytes + i] - predicted) & 0xff;
    }
  }
  return out;
}

describe('PDF filters, decoded as a viewer decodes them', () => {
  const sample = latin(Array.from({ length: 3000 }, (_, i) => 'ABCDEFGH /OpenAction 12 0 R '[(i * 7 + (i >> 5)) % 28]).join(''));
  const limit = 1 << 20;

  it('ASCIIHexDecode skips whitespace, stops at > and pads an odd last digit', () => {
    expect(fromLatin(asciiHexDecode(latin('2F 4a\n61\0 76 61>2F2F'), limit))).toBe('/Java');
    expect([...asciiHexDecode(latin('2F7>'), limit)]).toEqual([0x2f, 0x70]);
    expect(asciiHexDecode(latin(hex(sample)), limit)).toEqual(sample);
  });

  it('ASCII85Decode reads groups of five, z for zeros, a short last group, up to ~>', () => {
    expect(fromLatin(ascii85Decode(latin('9jqo^ \n9jqo^~>9jqo^'), limit))).toBe('Man Man ');
    expect([...ascii85Decode(latin('z\n!!~>'), limit)]).toEqual([0, 0, 0, 0, 0]);
    for (const n of [3000, 2999, 2998, 2997]) expect(ascii85Decode(latin(ascii85(sample.subarray(0, n))), limit)).toEqual(sample.subarray(0, n));
  });

  it('LZWDecode: the example of the PDF reference, and codes growing from 9 to 12 bits', () => {
    expect(fromLatin(lzwDecode(new Uint8Array([0x80, 0x0b, 0x60, 0x50, 0x22, 0x0c, 0x0c, 0x85, 0x01]), limit))).toBe('-----A---B');
    const noisy = new Uint8Array(12000).map((_, i) => (i * 2654435761) >>> 27);
    expect(lzwDecode(lzw(noisy), limit)).toEqual(noisy);
    expect(lzwDecode(lzw(sample), limit)).toEqual(sample);
  });

  it('RunLengthDecode: literal runs, repeated runs, 128 ends', () => {
    expect(fromLatin(runLengthDecode(new Uint8Array([2, 0x2f, 0x4a, 0x53, 0xfe, 0x20, 128, 0x41]), limit))).toBe('/JS   ');
  });

  it('PNG and TIFF predictors are undone', () => {
    const pixels = new Uint8Array(6 * 40).map((_, i) => (i * 37) ^ (i >> 3));
    expect(unpredict(pngPredict(pixels, 6, 3), { Predictor: 12, Colors: 3, Columns: 2 })).toEqual(pixels);
    const tiff = pixels.map((v, i) => (i % 6 >= 3 ? (v - pixels[i - 3]) & 0xff : v));
    expect(unpredict(tiff, { Predictor: 2, Colors: 3, Columns: 2 })).toEqual(pixels);
  });

  it('every decoder stops at its limit, so a bomb costs no more than the budget', async () => {
    const zeros = new Uint8Array(4 << 20);
    const bomb = await deflate(zeros);
    expect((await decodeFilter('FlateDecode', bomb, {}, 1000))?.length).toBe(1000);
    expect((await decodeFilter('RL', new Uint8Array(2000).map((_, i) => (i % 2 ? 0 : 129)), {}, 1000))?.length).toBe(1000);
    expect(lzwDecode(lzw(zeros.subarray(0, 100_000)), 1000).length).toBe(1000);
    expect(await decodeFilter('DCTDecode', bomb, {}, 1000)).toBeNull();
  });
});

describe('pdfActiveContent', () => {
  const objects = latin('3 0 4 40 << /Type /Catalog /Pages 5 0 R >> << /Type /Action /S /JavaScript /JS (app.alert(1)) >>');
  const objStm = (dict: string, data: Uint8Array) => withStream(`2 0 obj << /Type /ObjStm /N 2 /First 10 ${dict} /Length ${data.length} >>`, data);

  it.each([
    ['AHx + Fl, abbreviated', async () => objStm('/Filter [/AHx /Fl]', latin(hex(await deflate(objects))))],
    ['A85 + Flate', async () => objStm('/Filter [/ASCII85Decode /FlateDecode]', latin(ascii85(await deflate(objects))))],
    ['LZW', async () => objStm('/Filter /LZWDecode', lzw(objects))],
    ['RunLength', async () => objStm('/Filter /RL', concat(new Uint8Array([objects.length - 1]), objects, new Uint8Array([128])))],
    ['Flate with a PNG predictor', async () => objStm('/Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 8 >>', await deflate(pngPredict(concat(objects, new Uint8Array(8 - (objects.length % 8))), 8, 1)))],
    ['a filter by reference', async () => concat(objStm('/Filter 9 0 R', await deflate(objects)), latin('9 0 obj [/FlateDecode] endobj\n'))],
    ['NUL after the name', async () => latin('%PDF-1.4\n1 0 obj << /OpenAction\0<< /S /GoTo >> >> endobj')],
    ['an event action', async () => latin('%PDF-1.4\n1 0 obj << /Type /Annot /AA << /O 7 0 R >> >> endobj')],
    ['embedded media', async () => latin('%PDF-1.4\n1 0 obj << /Type /Annot /Subtype /RichMedia >> endobj')],
  ])('finds the active name through %s', async (_, make) => {
    expect(await pdfActiveContent(await make())).toMatchObject({ active: expect.stringMatching(/^(JavaScript|JS|OpenAction|AA|RichMedia)$/) });
  });

  it('ignores what an image codec encodes and image pixels, but not an image dictionary that is an object stream', async () => {
    const image = (dict: string) => withStream(`6 0 obj << /Type /XObject /Subtype /Image ${dict} >>`, latin('\xff\xd8\xff /JS ) /AA '));
    expect(await pdfActiveContent(image('/Filter /DCTDecode /Length 15'))).toBeNull();
    expect(await pdfActiveContent(image('/Length 15'))).toBeNull();
    expect(await pdfActiveContent(image('/N 1 /First 0'))).toEqual({ active: 'JS' });
    // A cross-reference may point inside an image's data: an object header there keeps it checked.
    expect(await pdfActiveContent(withStream('6 0 obj << /Subtype /Image /Filter /DCTDecode /Length 30 >>', latin('\xff\xd8 7 0 obj << /AA 1 0 R >>  ')))).toEqual({ active: 'AA' });
  });

  it('refuses a PDF whose streams decode to more than the budget: it cannot be checked', async () => {
    const bomb = await deflate(new Uint8Array(65 << 20));
    expect(await pdfActiveContent(withStream('2 0 obj << /Filter /FlateDecode >>', bomb))).toEqual({ tooMuchData: true });
    expect(await pdfActiveContent(withStream('2 0 obj << /Filter /FlateDecode >>', await deflate(new Uint8Array(1 << 20))))).toBeNull();
  });

  it('a name that merely starts like an active one passes', async () => {
    expect(await pdfActiveContent(latin('%PDF-1.4\n1 0 obj << /JSON 2 /AAA 3 /OpenActions 4 /Java#00Script 5 >> endobj'))).toBeNull();
  });
});
