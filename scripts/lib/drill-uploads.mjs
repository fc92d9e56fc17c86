// The uploads' part of `npm run backup:drill` (scripts/backup-drill.mjs): local R2 buckets seen as S3
// stores, the fake S3 on loopback, what the restored database points to in R2, and the two HTTP
// walks the drill needs (an upload, an erasure from the console as docs/OPERATIONS.md tells the operator).
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';

/** A local R2 bucket (a Miniflare binding) as a store of scripts/lib/fake-s3.mjs. */
export function r2Store(bucket) {
  return {
    async list(prefix) {
      const out = [];
      let cursor;
      do {
        const page = await bucket.list({ prefix, cursor });
        out.push(...page.objects.map((o) => ({ key: o.key, size: o.size, etag: o.etag })));
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor);
      return out;
    },
    async get(key) {
      const object = await bucket.get(key);
      return object && { bytes: new Uint8Array(await object.arrayBuffer()), type: object.httpMetadata?.contentType, etag: object.etag };
    },
    async put(key, bytes, type) {
      await bucket.put(key, bytes, { httpMetadata: { contentType: type } });
    },
    async delete(key) {
      await bucket.delete(key);
    },
  };
}

/** Every object of a store: key -> sha256 of its bytes. */
export async function digests(store) {
  const out = new Map();
  for (const { key } of await store.list('')) out.set(key, createHash('sha256').update((await store.get(key)).bytes).digest('hex'));
  return out;
}

/** A fake S3's handler served on 127.0.0.1 (a free port); `close` stops it. */
export async function listenOnLoopback(handle) {
  const server = createServer(async (req, res) => {
    try {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].toLowerCase() !== 'host') headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
      const body = ['GET', 'HEAD'].includes(req.method) ? undefined : Buffer.concat(chunks);
      const response = await handle(new Request(new URL(req.url, `http://${req.headers.host}`), { method: req.method, headers, body }));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return { url, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** The R2 keys the database points to: uploads (files), export archives, receipts; with their owner where there is one. */
export async function referencedKeys(d1) {
  const sql =
    'SELECT storage_key AS key, owner_id AS owner FROM files ' +
    'UNION ALL SELECT storage_key, user_id FROM data_exports WHERE storage_key IS NOT NULL ' +
    'UNION ALL SELECT receipt_key, NULL FROM transactions WHERE receipt_key IS NOT NULL';
  return (await d1.prepare(sql).all()).results;
}

/**
 * fetch on a connection of its own: wrangler dev drops a kept-alive connection left idle while
 * another process walks the API, and the next request sent on it fails ("other side closed").
 */
export const fetchClosing = (url, init = {}) => fetch(url, { ...init, headers: { ...init.headers, Connection: 'close' } });

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function json(res, what) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what} answered ${res.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** Signs in through the API; the access token and the user. */
export async function apiLogin(base, email, password) {
  const res = await fetchClosing(`${base}/v1/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) });
  const body = await json(res, `login ${email}`);
  return { token: body.accessToken, user: body.user };
}

/** POST /files: a small PNG (with `tag` after its end, so each upload's bytes differ) for `purpose`. */
export async function uploadPng(base, token, purpose, tag) {
  const form = new FormData();
  form.set('purpose', purpose);
  form.set('file', new Blob([PNG, Buffer.from(`drill:${tag}`)], { type: 'image/png' }), `${tag}.png`);
  return json(await fetchClosing(`${base}/v1/api/files`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form }), `upload ${purpose}`);
}

/** DELETE /user/me: the user erases their own account. */
export async function eraseOwnAccount(base, token) {
  return json(await fetchClosing(`${base}/v1/api/user/me`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } }), 'DELETE /user/me');
}

/** The console as a script: cookies kept, each form posted with its page's CSRF token. */
function consoleClient(base) {
  const cookies = new Map();
  let last = '';
  const request = async (method, path, form) => {
    const headers = { Cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    const res = await fetchClosing(`${base}${path}`, { method, headers, body: form && new URLSearchParams(form), redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const text = await res.text();
    if (res.headers.get('Content-Type')?.startsWith('text/html')) last = text;
    return { status: res.status, location: res.headers.get('Location'), text };
  };
  const csrf = (action) => {
    const form = last.split('<form').find((f) => f.includes(`action="${action}"`));
    const match = form?.match(/name="csrf" value="([^"]*)"/);
    if (!match) throw new Error(`console: no form posting to ${action} on the last page`);
    return match[1];
  };
  const submit = async (page, action, fields) => {
    await request('GET', page);
    return request('POST', action, { csrf: csrf(action), ...fields });
  };
  return { request, submit };
}

/**
 * docs/OPERATIONS.md, "Erasures made after the restore point": a super-admin signs in to the console,
 * opens each account and erases it, typing its address. Throws when the console refuses.
 */
export async function eraseFromConsole(base, operator, accounts) {
  const browser = consoleClient(base);
  const signIn = await browser.submit('/console/login', '/console/login', { email: operator.email, password: operator.password });
  if (signIn.status !== 303 && signIn.status !== 302) throw new Error(`console sign-in of ${operator.email} answered ${signIn.status}`);
  for (const { id, email } of accounts) {
    const res = await browser.submit(`/console/users/${id}`, `/console/users/${id}/erase`, { confirmEmail: email });
    if (res.status !== 303 && res.status !== 302) throw new Error(`console erasure of user ${id} answered ${res.status}: ${res.text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').slice(0, 300)}`);
  }
}
