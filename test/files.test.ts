// File uploads: the type comes from the bytes and must suit the purpose, executables and files
// over 10 MB are refused, and files are read back only by those allowed to see them.
import { env, exports } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '../src/db/client';
import { files } from '../src/db/schema';
import { detectContentType, pdfActiveContent } from '../src/features/files/files.rules';
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

function upload(user: TestUser | null, part: { data: Uint8Array; name: string; type: string }, fields: Record<string, string>) {
  const form = new FormData();
  form.append('file', new File([part.data], part.name, { type: part.type }));
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return call('POST', '/v1/api/files', { raw: form, token: user?.token });
}

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
    const latin = (text: string) => new Uint8Array([...text].map((ch) => ch.charCodeAt(0)));
    const deflate = async (text: string) =>
      new Uint8Array(await new Response(new Blob([latin(text)]).stream().pipeThrough(new CompressionStream('deflate'))).arrayBuffer());
    const withStream = (head: string, data: Uint8Array) => {
      const [a, b] = [latin(`%PDF-1.7\n${head}\nstream\n`), latin('\nendstream\nendobj\n%%EOF\n')];
      const out = new Uint8Array(a.length + data.length + b.length);
      out.set(a);
      out.set(data, a.length);
      out.set(b, a.length + data.length);
      return out;
    };
    const script = latin('%PDF-1.7\n1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\n%%EOF\n');
    const escaped = latin('%PDF-1.7\n1 0 obj << /Type /Catalog /OpenAction << /S /J#61vaScript /J#53 (app.alert(1)) >> >> endobj\n%%EOF\n');
    const hidden = withStream('2 0 obj << /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode >>', await deflate('3 0 << /S /Launch /F (cmd.exe) >>'));
    const passive = withStream('4 0 obj << /Length 44 /Filter /FlateDecode >>', await deflate('BT /F1 12 Tf 72 712 Td (Passport scan) Tj ET'));
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
