/** `METHOD /path` of every operation whose document lists the Idempotency-Key header. */
export declare const IDEMPOTENT_OPERATIONS: ReadonlySet<string>;
/** The document's version (info.version) the types were generated from. */
export declare const API_VERSION = "2.0.0";
