// The second copy outside the account (CONTRACT section 27): the nightly job's S3 client (aws4fetch,
// SigV4) against a faithful fake of the S3 API (ListObjectsV2 pages, GET, PUT, DELETE, signatures
// required), the uploads mirrored: new and changed objects copied, erased ones deleted, a second
// run doing nothing; and the job refusing to start without its settings.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeS3, memoryStore } from '../scripts/lib/fake-s3.mjs';
import { mirror, mirrorPlan, restoreMissing, s3Bucket } from '../scripts/lib/offsite.mjs';

/** One S3-compatible service holding buckets of objects; it lists two keys a page to exercise paging. */
class FakeS3 {
  buckets = new Map<string, Map<string, { body: Uint8Array; type: string }>>();
  requests: { method: string; path: string; authorization: string }[] = [];
  constructor(readonly host: string, readonly accessKeyId: string) {}
  bucket(name: string) {
    if (!this.buckets.has(name)) this.buckets.set(name, new Map());
    return this.buckets.get(name)!;
  }
  handlers() {
    const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    return [
      http.all(`https://${this.host}/*`, async ({ request }) => {
        const url = new URL(request.url);
        const authorization = request.headers.get('Authorization') ?? '';
        this.requests.push({ method: request.method, path: url.pathname, authorization });
        if (!authorization.startsWith(`AWS4-HMAC-SHA256 Credential=${this.accessKeyId}/`) || !request.headers.get('x-amz-date')) {
          return new HttpResponse('<Error><Code>AccessDenied</Code></Error>', { status: 403 });
        }
        const [, bucketName, ...rest] = url.pathname.split('/');
        const bucket = this.bucket(bucketName);
        const key = rest.map(decodeURIComponent).join('/');
        if (request.method === 'GET' && !key) {
          const prefix = url.searchParams.get('prefix') ?? '';
          const keys = [...bucket.keys()].filter((k) => k.startsWith(prefix)).sort();
          const start = Number(url.searchParams.get('continuation-token') ?? 0);
          const page = keys.slice(start, start + 2);
          const truncated = start + 2 < keys.length;
          const contents = page.map((k) => `<Contents><Key>${esc(k)}</Key><Size>${bucket.get(k)!.body.byteLength}</Size><ETag>"e"</ETag></Contents>`).join('');
          return new HttpResponse(
            `<?xml version="1.0"?><ListBucketResult><IsTruncated>${truncated}</IsTruncated>${contents}${truncated ? `<NextContinuationToken>${start + 2}</NextContinuationToken>` : ''}</ListBucketResult>`,
            { headers: { 'Content-Type': 'application/xml' } },
          );
        }
        if (request.method === 'GET') {
          const object = bucket.get(key);
          return object ? new HttpResponse(object.body, { headers: { 'Content-Type': object.type } }) : new HttpResponse('<Error><Code>NoSuchKey</Code></Error>', { status: 404 });
        }
        if (request.method === 'PUT') {
          bucket.set(key, { body: new Uint8Array(await request.arrayBuffer()), type: request.headers.get('Content-Type') ?? 'application/octet-stream' });
          return new HttpResponse(null, { status: 200 });
        }
        if (request.method === 'DELETE') {
          bucket.delete(key);
          return new HttpResponse(null, { status: 204 });
        }
        return new HttpResponse(null, { status: 405 });
      }),
    ];
  }
}

const r2 = new FakeS3('acct.r2.cloudflarestorage.com', 'r2-key');
const offsite = new FakeS3('s3.fr-par.scw.cloud', 'offsite-key');
const server = setupServer(...r2.handlers(), ...offsite.handlers());
beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterAll(() => server.close());
beforeEach(() => {
  for (const s of [r2, offsite]) {
    s.buckets.clear();
    s.requests = [];
  }
});

const source = () => s3Bucket({ endpoint: 'https://acct.r2.cloudflarestorage.com', bucket: 'uploads', accessKeyId: 'r2-key', secretAccessKey: 'r2-secret' });
const destination = () => s3Bucket({ endpoint: 'https://s3.fr-par.scw.cloud', bucket: 'colis-backups', accessKeyId: 'offsite-key', secretAccessKey: 'offsite-secret', region: 'fr-par' });
const put = (fake: FakeS3, bucket: string, key: string, text: string) => fake.bucket(bucket).set(key, { body: new TextEncoder().encode(text), type: 'image/png' });
const text = (fake: FakeS3, bucket: string, key: string) => new TextDecoder().decode(fake.bucket(bucket).get(key)?.body);

describe('the uploads mirrored into the second location', () => {
  it('copies new and changed objects, deletes erased ones, every request signed; a second run does nothing', async () => {
    put(r2, 'uploads', 'avatars/1.png', 'a1');
    put(r2, 'uploads', 'parcels/7 photo&.png', 'p7');
    put(r2, 'uploads', 'kyc/9.pdf', 'k9-new-version');
    put(offsite, 'colis-backups', 'uploads/kyc/9.pdf', 'k9');
    put(offsite, 'colis-backups', 'uploads/erased/3.png', 'gone');
    put(offsite, 'colis-backups', 'd1/export.sql.gz', 'kept: not under uploads/');

    expect(await mirror(source(), destination(), { prefix: 'uploads/' })).toEqual({ copied: 3, deleted: 1, unchanged: 0 });
    expect([...offsite.bucket('colis-backups').keys()].sort()).toEqual(['d1/export.sql.gz', 'uploads/avatars/1.png', 'uploads/kyc/9.pdf', 'uploads/parcels/7 photo&.png']);
    expect(text(offsite, 'colis-backups', 'uploads/kyc/9.pdf')).toBe('k9-new-version');
    expect(offsite.bucket('colis-backups').get('uploads/avatars/1.png')?.type).toBe('image/png');
    expect([...r2.requests, ...offsite.requests].every((r) => r.authorization.includes('SignedHeaders='))).toBe(true);
    expect(offsite.requests.some((r) => r.authorization.includes('/fr-par/s3/aws4_request'))).toBe(true);

    offsite.requests = [];
    expect(await mirror(source(), destination(), { prefix: 'uploads/' })).toEqual({ copied: 0, deleted: 0, unchanged: 3 });
    expect(offsite.requests.map((r) => r.method)).toEqual(['GET', 'GET']); // two list pages, nothing written
  });

  it('a dry run writes nothing; wrong credentials stop the job with the store\'s answer', async () => {
    put(r2, 'uploads', 'a.png', 'a');
    expect(await mirror(source(), destination(), { prefix: 'uploads/', dryRun: true })).toEqual({ copied: 1, deleted: 0, unchanged: 0 });
    expect(offsite.bucket('colis-backups').size).toBe(0);
    const wrong = s3Bucket({ endpoint: 'https://s3.fr-par.scw.cloud', bucket: 'colis-backups', accessKeyId: 'not-the-key', secretAccessKey: 'x' });
    await expect(mirror(source(), wrong, { prefix: 'uploads/' })).rejects.toThrow('list s3.fr-par.scw.cloud/colis-backups: 403');
  });

  it('the plan compares by key and size', () => {
    const o = (key: string, size: number) => ({ key, size, etag: '' });
    expect(mirrorPlan([o('a', 1), o('b', 2), o('c', 3)], [o('p/a', 1), o('p/b', 5), o('p/z', 1)], 'p/')).toEqual({ copy: ['b', 'c'], remove: ['p/z'], unchanged: 1 });
  });
});

describe('the way back, and the drill\'s fake S3 (scripts/lib/fake-s3.mjs)', () => {
  const keys = { accessKeyId: 'drill-key', secretAccessKey: 'drill-secret', region: 'fr-par' };
  const bytes = (text: string) => new TextEncoder().encode(text);
  const setup = (now?: () => number) => {
    const backup = memoryStore();
    const restored = memoryStore();
    const fake = fakeS3({ ...keys, buckets: { backups: backup, uploads: restored }, pageSize: 2, now });
    const bucket = (name: string, over: Partial<typeof keys> = {}) => s3Bucket({ endpoint: 'http://127.0.0.1:9', bucket: name, ...keys, ...over, fetch: (r) => fake.handle(r as Request) });
    return { backup, restored, fake, bucket };
  };

  it('restores what the bucket lacks, without the prefix, overwriting and deleting nothing; pages of two', async () => {
    const { backup, restored, fake, bucket } = setup();
    for (const [key, text] of [['uploads/a.png', 'a'], ['uploads/kyc/b c&.pdf', 'b'], ['uploads/c.png', 'c-old'], ['d1/x.sql.gz', 'sql']]) await backup.put(key, bytes(text), 'image/png');
    await restored.put('c.png', bytes('c-newer'), 'image/png');
    await restored.put('only-here.png', bytes('z'), 'image/png');

    expect(await restoreMissing(bucket('backups'), bucket('uploads'), { prefix: 'uploads/' })).toEqual({ copied: 2, present: 2 });
    expect([...restored.objects.keys()].sort()).toEqual(['a.png', 'c.png', 'kyc/b c&.pdf', 'only-here.png']);
    expect(new TextDecoder().decode(restored.objects.get('c.png')!.bytes)).toBe('c-newer');
    expect(restored.objects.get('kyc/b c&.pdf')!.type).toBe('image/png');
    expect(fake.requests.filter((r) => r.method === 'GET' && r.path === '/backups')).toHaveLength(2); // 3 keys under uploads/: two pages
    expect(await restoreMissing(bucket('backups'), bucket('uploads'), { prefix: 'uploads/' })).toEqual({ copied: 0, present: 4 });
  });

  it('answers only requests signed with its key: a wrong secret, key id or region, a request altered after signing, a stale date or another body are refused', async () => {
    const { backup, fake, bucket } = setup();
    await backup.put('uploads/a.png', bytes('a'), 'image/png');
    expect((await bucket('backups').list()).map((o) => o.key)).toEqual(['uploads/a.png']);
    await expect(bucket('backups', { secretAccessKey: 'not-the-secret' }).list()).rejects.toThrow(/list 127\.0\.0\.1:9\/backups: 403 [\s\S]*SignatureDoesNotMatch/);
    await expect(bucket('backups', { accessKeyId: 'someone-else' }).get('uploads/a.png')).rejects.toThrow(/403 [\s\S]*InvalidAccessKeyId/);
    await expect(bucket('backups', { region: 'us-east-1' }).put('uploads/x', bytes('x'))).rejects.toThrow(/400 [\s\S]*AuthorizationHeaderMalformed/);
    expect([...backup.objects.keys()]).toEqual(['uploads/a.png']);

    const { AwsClient } = await import('aws4fetch');
    const client = new AwsClient({ ...keys, service: 's3' });
    const signed = await client.sign('http://127.0.0.1:9/backups/uploads/a.png', { method: 'DELETE' });
    const moved = new Request('http://127.0.0.1:9/backups/uploads/b.png', { method: 'DELETE', headers: signed.headers });
    expect(await (await fake.handle(moved)).text()).toContain('SignatureDoesNotMatch');
    const hashed = await client.sign('http://127.0.0.1:9/backups/uploads/h.png', { method: 'PUT', body: 'signed body', headers: { 'X-Amz-Content-Sha256': 'f'.repeat(64) } });
    expect((await fake.handle(hashed)).status).toBe(400);
    const stale = setup(() => Date.now() + 20 * 60_000);
    await expect(stale.bucket('backups').list()).rejects.toThrow(/403 [\s\S]*RequestTimeTooSkewed/);
    expect(await fake.handle(new Request('http://127.0.0.1:9/backups?list-type=2'))).toHaveProperty('status', 403);
    expect([...backup.objects.keys()]).toEqual(['uploads/a.png']);
    expect((await fake.handle(signed)).status).toBe(204);
    expect(backup.objects.size).toBe(0);
  });
});
