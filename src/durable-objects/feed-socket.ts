// What the read-only live feeds (tracking, a reservation's status) answer on their hibernating
// sockets, written once: the client only sends "ping" (answered "pong" by the runtime's auto-response).

/**
 * Any frame but "ping" is answered with why it was not taken (CONTRACT section 19: never dropped
 * in silence), and the socket stays open.
 */
export function refuseFrame(ws: WebSocket, message: string | ArrayBuffer): void {
  if (message === 'ping') return;
  const what = typeof message === 'string' ? 'a text frame other than "ping"' : 'a binary frame';
  ws.send(JSON.stringify({ type: 'error', errorCode: 'INVALID_ARGUMENT', message: `This feed is read-only: ${what} is not accepted; send only "ping"` }));
}

/** Completes the client's close; 1005/1006 are reserved (no status / abnormal): closing with them throws. */
export function completeClose(ws: WebSocket, code: number, reason: string): void {
  if (code !== 1005 && code !== 1006) ws.close(code, reason);
}
