// @parcel-marketplace/sdk: the typed API client for the apps (CONTRACT section 23).
export { createMarketplaceClient } from './client.js';
export type { MarketplaceClient, MarketplaceClientOptions, ApiClient, ChatHandlers, TrackingHandlers, User, ChatMessage, Position } from './client.js';
export { ApiError, NetworkError, unwrap, retryAfterMs } from './errors.js';
export type { ErrorBody, ErrorCode, FieldError } from './errors.js';
export { Session } from './session.js';
export type { StoredTokens, TokenPair } from './session.js';
export { LiveSocket, CLOSE_TOKEN_EXPIRED, CLOSE_TOKEN_REVOKED } from './sockets.js';
export type { SocketState, WebSocketFactory, WebSocketLike } from './sockets.js';
export { Transport, BOOKMARK_HEADER, IDEMPOTENCY_HEADER } from './transport.js';
export { acceptsIdempotencyKey, randomKey } from './idempotency.js';
export { DEFAULT_RETRY, backoffDelay } from './backoff.js';
export type { RetryPolicy } from './backoff.js';
export { IDEMPOTENT_OPERATIONS, API_VERSION } from './generated/operations.js';
export type { paths, components, operations } from './generated/api.js';
