// @parcel-marketplace/sdk: the typed API client for the apps (CONTRACT sections 23 and 28).
export { createMarketplaceClient } from './client.js';
export { ApiError, NetworkError, TimeoutError, unwrap, retryAfterMs } from './errors.js';
export { Session, DEFAULT_STORAGE_KEY } from './session.js';
export { LiveSocket, CLOSE_TOKEN_EXPIRED, CLOSE_TOKEN_REVOKED, CLOSE_SILENT, DEFAULT_HEARTBEAT } from './sockets.js';
export { PaymentWaitError, PAID_PAYMENT_STATUSES, DEFAULT_PAYMENT_WAIT_MS, paymentOutcome } from './status-feed.js';
export { Transport, BOOKMARK_HEADER, IDEMPOTENCY_HEADER, DEFAULT_TIMEOUT_MS } from './transport.js';
export { acceptsIdempotencyKey, randomKey } from './idempotency.js';
export { DEFAULT_RETRY, backoffDelay } from './backoff.js';
export { IDEMPOTENT_OPERATIONS, API_VERSION } from './generated/operations.js';
export * from './generated/enums.js';
