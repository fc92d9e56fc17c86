// A fake server for the runtime's unit tests: records every request and answers with a handler.
export interface Seen {
  method: string;
  path: string;
  headers: Headers;
  body: string;
}

export type Handler = (req: Seen, index: number) => Response | Promise<Response>;

export function fakeFetch(handler: Handler) {
  const seen: Seen[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    const req: Seen = {
      method: request.method,
      path: new URL(request.url).pathname + new URL(request.url).search,
      headers: request.headers,
      body: request.body ? await request.text() : '',
    };
    seen.push(req);
    return handler(req, seen.length - 1);
  };
  return { fetch, seen };
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

export const errorBody = (status: number, errorCode: string, message: string, extra: object = {}) =>
  json({ status, errorCode, message, timestamp: '2026-11-27T00:00:00Z', path: '/', suggestions: [], ...extra }, status, {
    'X-Request-Id': 'req-1',
  });

export const tokenPair = (n: number, expiresIn = 900) => ({
  accessToken: `access-${n}`,
  refreshToken: `refresh-${n}`,
  expiresIn,
  refreshExpiresIn: 604800,
});

/** A clock the test moves by hand, with its timers; sleeping advances it and records the delay. */
export function fakeClock(start = 1_000_000) {
  let now = start;
  const sleeps: number[] = [];
  let timers: Array<{ at: number; fn: () => void }> = [];
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      timers = timers.filter((t) => t !== due);
      now = Math.max(now, due.at);
      due.fn();
    }
    now = end;
  };
  return {
    now: () => now,
    advance,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      advance(ms);
    },
    setTimer: (fn: () => void, ms: number) => {
      const timer = { at: now + ms, fn };
      timers.push(timer);
      return () => {
        timers = timers.filter((t) => t !== timer);
      };
    },
    /** Timers not yet fired. */
    pending: () => timers.length,
    sleeps,
  };
}

type Listener = (event: any) => void;

/** A WebSocket the test drives: open(), receive(), serverClose(). */
export class FakeSocket {
  readyState = 0;
  sent: string[] = [];
  closedWith: number | null = null;
  private listeners: Record<string, Listener[]> = {};
  readonly url: string;
  readonly protocols: string[];
  constructor(url: string, protocols: string[]) {
    this.url = url;
    this.protocols = protocols;
  }
  addEventListener(type: string, listener: Listener) {
    (this.listeners[type] ??= []).push(listener);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close(code = 1000) {
    this.closedWith = code;
    this.readyState = 3;
  }
  private emit(type: string, event: object) {
    for (const l of this.listeners[type] ?? []) l(event);
  }
  open() {
    this.readyState = 1;
    this.emit('open', {});
  }
  receive(frame: unknown) {
    this.emit('message', { data: typeof frame === 'string' ? frame : JSON.stringify(frame) });
  }
  serverClose(code: number) {
    this.readyState = 3;
    this.emit('close', { code });
  }
}

export const tick = () => new Promise((r) => setTimeout(r, 0));
