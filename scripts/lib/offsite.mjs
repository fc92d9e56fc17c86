// The second copy outside the Cloudflare account (CONTRACT section 27, docs/OPERATIONS.md section 2):
// any S3-compatible store (AWS S3, Scaleway, OVH, Backblaze B2, MinIO...) reached with SigV4-signed
// requests (aws4fetch), and R2 read through its own S3-compatible API. Plain fetch, so the same code
// runs in the nightly job (Node) and in the tests (workerd, against a fake S3).
import { AwsClient } from 'aws4fetch';

const xmlText = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
const tag = (xml, name) => xmlText(new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml)?.[1] ?? '');
const encodeKey = (key) => key.split('/').map(encodeURIComponent).join('/');

/**
 * A bucket of an S3-compatible store. `endpoint`: the service's URL (https://s3.fr-par.scw.cloud,
 * https://<account>.r2.cloudflarestorage.com); path-style addressing, which every one of them serves.
 */
export function s3Bucket({ endpoint, bucket, accessKeyId, secretAccessKey, region = 'auto', fetch: fetchImpl }) {
  const client = new AwsClient({ accessKeyId, secretAccessKey, region, service: 's3', retries: 3 });
  const base = `${endpoint.replace(/\/$/, '')}/${bucket}`;
  const send = async (url, init = {}) => {
    const signed = await client.sign(url, init);
    return (fetchImpl ?? globalThis.fetch)(signed);
  };
  const fail = async (what, res) => {
    throw new Error(`${what}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  };
  return {
    label: `${endpoint.replace(/^https?:\/\//, '')}/${bucket}`,
    /** Every object under `prefix`: key, size, ETag (ListObjectsV2, a thousand a page). */
    async list(prefix = '') {
      const objects = [];
      let token;
      do {
        const url = new URL(base);
        url.searchParams.set('list-type', '2');
        if (prefix) url.searchParams.set('prefix', prefix);
        if (token) url.searchParams.set('continuation-token', token);
        const res = await send(url.toString());
        if (!res.ok) await fail(`list ${this.label}`, res);
        const xml = await res.text();
        for (const [, body] of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
          objects.push({ key: tag(body, 'Key'), size: Number(tag(body, 'Size')), etag: tag(body, 'ETag') });
        }
        token = tag(xml, 'IsTruncated') === 'true' ? tag(xml, 'NextContinuationToken') : undefined;
      } while (token);
      return objects;
    },
    async get(key) {
      const res = await send(`${base}/${encodeKey(key)}`);
      if (!res.ok) await fail(`get ${key}`, res);
      return res;
    },
    async put(key, body, contentType = 'application/octet-stream') {
      const bytes = body instanceof ArrayBuffer || ArrayBuffer.isView(body) ? body : await new Response(body).arrayBuffer();
      const res = await send(`${base}/${encodeKey(key)}`, { method: 'PUT', body: bytes, headers: { 'Content-Type': contentType } });
      if (!res.ok) await fail(`put ${key}`, res);
    },
    async delete(key) {
      const res = await send(`${base}/${encodeKey(key)}`, { method: 'DELETE' });
      if (!res.ok && res.status !== 404) await fail(`delete ${key}`, res);
    },
  };
}

/**
 * What mirroring `source` into `destination` (under `prefix`) does: copy what is missing or differs in
 * size, delete what the source no longer has (an upload erased or purged by retention). The store's
 * versioning keeps a deleted object 30 days (docs/OPERATIONS.md), so a deletion in the source is
 * recoverable for as long as a D1 restore point, and an erasure is gone from every copy after that.
 */
export function mirrorPlan(sourceObjects, destinationObjects, prefix = '') {
  const there = new Map(destinationObjects.map((o) => [o.key, o]));
  const wanted = new Set();
  const copy = [];
  for (const o of sourceObjects) {
    const key = `${prefix}${o.key}`;
    wanted.add(key);
    if (there.get(key)?.size !== o.size) copy.push(o.key);
  }
  const remove = destinationObjects.filter((o) => !wanted.has(o.key)).map((o) => o.key);
  return { copy, remove, unchanged: sourceObjects.length - copy.length };
}

/** Mirrors every object of `source` into `destination` under `prefix`; the counts of what it did. */
export async function mirror(source, destination, { prefix = '', dryRun = false } = {}) {
  const plan = mirrorPlan(await source.list(), await destination.list(prefix), prefix);
  if (!dryRun) {
    for (const key of plan.copy) {
      const res = await source.get(key);
      await destination.put(`${prefix}${key}`, await res.arrayBuffer(), res.headers.get('Content-Type') ?? undefined);
    }
    for (const key of plan.remove) await destination.delete(key);
  }
  return { copied: plan.copy.length, deleted: plan.remove.length, unchanged: plan.unchanged };
}

/**
 * The way back (docs/OPERATIONS.md, "Restoring uploads"): every object of `backup` under `prefix` that
 * `target` lacks, copied into `target` without the prefix; nothing in `target` is overwritten or
 * deleted (what it has is newer than any backup). The counts of what it did.
 */
export async function restoreMissing(backup, target, { prefix = '', dryRun = false } = {}) {
  const present = new Set((await target.list()).map((o) => o.key));
  const missing = (await backup.list(prefix)).filter((o) => o.key.startsWith(prefix) && !present.has(o.key.slice(prefix.length)));
  if (!dryRun) {
    for (const o of missing) {
      const res = await backup.get(o.key);
      await target.put(o.key.slice(prefix.length), await res.arrayBuffer(), res.headers.get('Content-Type') ?? undefined);
    }
  }
  return { copied: missing.length, present: present.size };
}
