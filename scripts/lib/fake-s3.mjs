// A local stand-in for an S3-compatible store, for `npm run backup:drill` (the second location, and
// R2's S3 API over a local bucket) and the tests: the calls scripts/lib/offsite.mjs makes
// (ListObjectsV2 with paging, GET, PUT, DELETE on path-style URLs), each refused unless signed with
// AWS Signature V4 by the configured key: the signature is recomputed here from the request as it
// arrived (written from AWS's specification, not with aws4fetch, which signs), so a wrong secret, a
// wrong key id, a request altered after signing or a body that is not the one signed is refused as
// S3 refuses it. Web APIs only (Request, Response, WebCrypto): the same code answers in Node (the
// drill's loopback server) and in workerd (the tests, through s3Bucket's `fetch` option).

const enc = new TextEncoder();
const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');
const sha256 = async (data) => hex(await crypto.subtle.digest('SHA-256', typeof data === 'string' ? enc.encode(data) : data));
const hmac = async (key, data) =>
  crypto.subtle.sign('HMAC', await crypto.subtle.importKey('raw', typeof key === 'string' ? enc.encode(key) : key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']), enc.encode(data));
/** URI-encoding as SigV4 defines it: everything but A-Z a-z 0-9 - _ . ~ percent-encoded. */
const rfc3986 = (s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const xml = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const MAX_SKEW_MS = 15 * 60_000;
const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/s3\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;

function error(status, code, message) {
  return new Response(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xml(message)}</Message></Error>`, {
    status,
    headers: { 'Content-Type': 'application/xml' },
  });
}

/** Objects kept in memory: the drill's second location. */
export function memoryStore() {
  const objects = new Map();
  return {
    objects,
    async list(prefix) {
      return [...objects].filter(([key]) => key.startsWith(prefix)).map(([key, o]) => ({ key, size: o.bytes.byteLength, etag: o.etag }));
    },
    async get(key) {
      return objects.get(key) ?? null;
    },
    async put(key, bytes, type) {
      objects.set(key, { bytes, type, etag: (await sha256(bytes)).slice(0, 32) });
    },
    async delete(key) {
      objects.delete(key);
    },
  };
}

/**
 * Why a request is refused (an S3 error response), or null when its SigV4 signature is the one the
 * configured key gives. `body`: the request's bytes, read once by the caller.
 */
async function refusal(request, body, { accessKeyId, secretAccessKey, region, now }) {
  const match = AUTHORIZATION.exec(request.headers.get('Authorization') ?? '');
  if (!match) return error(403, 'AccessDenied', 'Anonymous or malformed Authorization: a SigV4 signature is required');
  const [, keyId, day, scopeRegion, signedHeaders, signature] = match;
  if (keyId !== accessKeyId) return error(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  if (scopeRegion !== region) return error(400, 'AuthorizationHeaderMalformed', `the region '${scopeRegion}' is wrong; expecting '${region}'`);
  const amzDate = request.headers.get('x-amz-date') ?? '';
  const at = /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/.exec(amzDate);
  if (!at || amzDate.slice(0, 8) !== day) return error(403, 'AccessDenied', 'x-amz-date missing or not the credential scope\'s day');
  if (Math.abs(now() - Date.UTC(at[1], at[2] - 1, at[3], at[4], at[5], at[6])) > MAX_SKEW_MS) {
    return error(403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.');
  }
  const names = signedHeaders.split(';');
  if (!['host', 'x-amz-date', 'x-amz-content-sha256'].every((h) => names.includes(h))) return error(403, 'AccessDenied', 'host, x-amz-date and x-amz-content-sha256 must be signed');
  const payloadHash = request.headers.get('x-amz-content-sha256');
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== (await sha256(body))) {
    return error(400, 'XAmzContentSHA256Mismatch', 'The provided x-amz-content-sha256 header does not match what was computed.');
  }
  const url = new URL(request.url);
  const canonical = [
    request.method.toUpperCase(),
    url.pathname
      .split('/')
      .map((segment) => rfc3986(decodeURIComponent(segment)))
      .join('/'),
    [...url.searchParams]
      .map(([k, v]) => [rfc3986(k), rfc3986(v)])
      .sort(([k1, v1], [k2, v2]) => (k1 < k2 ? -1 : k1 > k2 ? 1 : v1 < v2 ? -1 : v1 > v2 ? 1 : 0))
      .map((pair) => pair.join('='))
      .join('&'),
    names.map((h) => `${h}:${h === 'host' ? url.host : (request.headers.get(h) ?? '').trim().replace(/\s+/g, ' ')}\n`).join(''),
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, await sha256(canonical)].join('\n');
  let key = await hmac(`AWS4${secretAccessKey}`, day);
  for (const part of [region, 's3', 'aws4_request']) key = await hmac(key, part);
  const expected = hex(await hmac(key, toSign));
  // Both are 64 hex characters: compared whole, not stopping at the first difference.
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ signature.charCodeAt(i);
  return diff === 0 ? null : error(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
}

async function listObjects(store, name, url, pageSize) {
  const prefix = url.searchParams.get('prefix') ?? '';
  const max = Math.min(Number(url.searchParams.get('max-keys') ?? pageSize) || pageSize, pageSize);
  const token = url.searchParams.get('continuation-token');
  const after = token ? new TextDecoder().decode(Uint8Array.from(atob(token), (c) => c.charCodeAt(0))) : '';
  const all = (await store.list(prefix)).filter((o) => o.key > after).sort((a, b) => (a.key < b.key ? -1 : 1));
  const page = all.slice(0, max);
  const truncated = all.length > max;
  const next = truncated ? btoa(String.fromCharCode(...enc.encode(page.at(-1).key))) : '';
  const contents = page.map((o) => `<Contents><Key>${xml(o.key)}</Key><ETag>${xml(`"${o.etag}"`)}</ETag><Size>${o.size}</Size><StorageClass>STANDARD</StorageClass></Contents>`);
  return new Response(
    `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${xml(name)}</Name><Prefix>${xml(prefix)}</Prefix>` +
      `<KeyCount>${page.length}</KeyCount><MaxKeys>${max}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${contents.join('')}` +
      `${truncated ? `<NextContinuationToken>${next}</NextContinuationToken>` : ''}</ListBucketResult>`,
    { headers: { 'Content-Type': 'application/xml' } },
  );
}

/**
 * An S3-compatible service holding `buckets` (name -> store: list/get/put/delete, e.g. memoryStore()
 * or a local R2 bucket), answering only requests signed by `accessKeyId`/`secretAccessKey` for
 * `region`. `requests` records each request (method, path, status).
 */
export function fakeS3({ accessKeyId, secretAccessKey, region = 'auto', buckets, pageSize = 1000, now = () => Date.now() }) {
  const requests = [];
  async function answer(request) {
    const body = new Uint8Array(await request.arrayBuffer());
    const refused = await refusal(request, body, { accessKeyId, secretAccessKey, region, now });
    if (refused) return refused;
    const url = new URL(request.url);
    const [, name, ...rest] = url.pathname.split('/');
    const store = buckets[decodeURIComponent(name ?? '')];
    if (!store) return error(404, 'NoSuchBucket', 'The specified bucket does not exist');
    const key = rest.map(decodeURIComponent).join('/');
    if (request.method === 'GET' && !key) {
      if (url.searchParams.get('list-type') !== '2') return error(400, 'InvalidArgument', 'only ListObjectsV2 (list-type=2) is served');
      return listObjects(store, name, url, pageSize);
    }
    if (request.method === 'GET') {
      const object = await store.get(key);
      if (!object) return error(404, 'NoSuchKey', 'The specified key does not exist.');
      return new Response(object.bytes, { headers: { 'Content-Type': object.type ?? 'application/octet-stream', ETag: `"${object.etag ?? ''}"` } });
    }
    if (request.method === 'PUT') {
      await store.put(key, body, request.headers.get('Content-Type') ?? 'application/octet-stream');
      return new Response(null, { status: 200, headers: { ETag: `"${(await sha256(body)).slice(0, 32)}"` } });
    }
    if (request.method === 'DELETE') {
      await store.delete(key);
      return new Response(null, { status: 204 });
    }
    return error(405, 'MethodNotAllowed', `${request.method} is not served here`);
  }
  return {
    requests,
    async handle(request) {
      const response = await answer(request);
      requests.push({ method: request.method, path: new URL(request.url).pathname, status: response.status });
      return response;
    },
  };
}
