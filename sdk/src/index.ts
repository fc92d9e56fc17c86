// @parcel-marketplace/sdk: the typed API client for the apps (CONTRACT sections 23 and 28).
export { createMarketplaceClient } from './client.js';
export type { MarketplaceClient, MarketplaceClientOptions, ApiClient, ChatHandlers, TrackingHandlers, User, ChatMessage, Position } from './client.js';
export { ApiError, NetworkError, TimeoutError, unwrap, retryAfterMs } from './errors.js';
export type { ErrorBody, ErrorCode, ErrorReason, FieldError } from './errors.js';
export { Session, DEFAULT_STORAGE_KEY } from './session.js';
export type { StoredTokens, TokenPair, TokenStorage, AuthChangeEvent, AuthStateListener } from './session.js';
export { LiveSocket, CLOSE_TOKEN_EXPIRED, CLOSE_TOKEN_REVOKED, CLOSE_SILENT, DEFAULT_HEARTBEAT } from './sockets.js';
export type { SocketState, SocketStateDetail, WebSocketFactory, WebSocketLike, HeartbeatPolicy } from './sockets.js';
export { PaymentWaitError, PAID_PAYMENT_STATUSES, DEFAULT_PAYMENT_WAIT_MS, paymentOutcome } from './status-feed.js';
export type { ReservationStatusFrame, StatusHandlers, WaitForPaymentOptions, PaymentWaitReason } from './status-feed.js';
export { Transport, BOOKMARK_HEADER, IDEMPOTENCY_HEADER, DEFAULT_TIMEOUT_MS } from './transport.js';
export { acceptsIdempotencyKey, randomKey } from './idempotency.js';
export { DEFAULT_RETRY, backoffDelay } from './backoff.js';
export type { RetryPolicy, SetTimer } from './backoff.js';
export type { PagedPath, PageOf, ItemOf, PageInit, PageMeta } from './pages.js';
export { IDEMPOTENT_OPERATIONS, API_VERSION } from './generated/operations.js';
export type { paths, components, operations } from './generated/api.js';
export * from './generated/enums.js';
