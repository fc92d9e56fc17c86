// A standard-looking WebSocket opened through the worker's fetch (workerd's client side of an upgrade),
// so the SDK's socket code runs unchanged against the real Durable Objects.
import { exports } from 'cloudflare:workers';
import type { WebSocketLike } from '../../src/index';

type Listener = (event: any) => void;

export class WorkerSocket implements WebSocketLike {
  readyState = 0;
  private listeners: Record<string, Listener[]> = {};
  private ws: WebSocket | null = null;

  constructor(url: string, protocols: string[]) {
    const httpUrl = url.replace(/^ws/, 'http');
    void exports.default
      .fetch(new Request(httpUrl, { headers: { Upgrade: 'websocket', 'Sec-WebSocket-Protocol': protocols.join(', ') } }))
      .then((res) => {
        const ws = res.webSocket;
        if (!ws) {
          this.readyState = 3;
          this.emit('error', {});
          this.emit('close', { code: 1006, reason: `HTTP ${res.status}` });
          return;
        }
        ws.accept();
        this.ws = ws;
        ws.addEventListener('message', (event) => this.emit('message', { data: event.data }));
        ws.addEventListener('close', (event) => {
          this.readyState = 3;
          this.emit('close', { code: event.code, reason: event.reason });
        });
        this.readyState = 1;
        this.emit('open', {});
      });
  }

  addEventListener(type: string, listener: Listener) {
    (this.listeners[type] ??= []).push(listener);
  }

  send(data: string) {
    this.ws?.send(data);
  }

  close(code?: number, reason?: string) {
    this.readyState = 3;
    this.ws?.close(code, reason);
  }

  private emit(type: string, event: object) {
    for (const listener of this.listeners[type] ?? []) listener(event);
  }
}
