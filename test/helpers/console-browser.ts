// A browser for console tests: keeps the cookies the console sets, submits its forms with their
// CSRF tokens, follows no redirect by itself.
import { exports } from 'cloudflare:workers';
import { PASSWORD, randomIp } from './auth';
import { BASE } from './http';

/** A browser: keeps the cookies the console sets (path /console), follows nothing by itself. */
export class Browser {
  /** The worker by default; a test of another configuration passes its own (createApp().request with a production env). */
  constructor(private readonly send: (request: Request) => Promise<Response> = (r) => exports.default.fetch(r)) {}

  cookies = new Map<string, string>();
  ip = randomIp();
  last = '';
  language = 'en';

  async request(method: string, path: string, form?: Record<string, string | string[]>, extra: Record<string, string> = {}) {
    const headers = new Headers({ 'CF-Connecting-IP': this.ip, 'Accept-Language': this.language, ...extra });
    if (this.cookies.size) headers.set('Cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    let body: URLSearchParams | undefined;
    if (form) {
      body = new URLSearchParams();
      for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
    }
    const res = await this.send(new Request(`${BASE}${path}`, { method, headers, body, redirect: 'manual' }));
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const html = res.headers.get('Content-Type')?.startsWith('text/html');
    const text = await res.text();
    if (html) this.last = text;
    return { status: res.status, headers: res.headers, text, location: res.headers.get('Location') };
  }

  get = (path: string) => this.request('GET', path);

  /** The CSRF token of the last page's form posting to `action` (else of its first form). */
  csrf(action?: string): string {
    const form = action ? this.last.split('<form').find((f) => f.includes(`action="${action}"`)) : this.last;
    const match = form?.match(/name="csrf" value="([^"]*)"/);
    if (!match) throw new Error('no CSRF field on the last page');
    return match[1];
  }

  /** Opens a page and submits its form to `action` with the page's token. */
  async submit(page: string, action: string, fields: Record<string, string | string[]> = {}) {
    await this.get(page);
    return this.request('POST', action, { csrf: this.csrf(action), ...fields });
  }

  async signIn(email: string, password = PASSWORD) {
    return this.submit('/console/login', '/console/login', { email, password });
  }
}

