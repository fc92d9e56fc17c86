// Types of fake-s3.mjs for the test suite.
export interface FakeObject {
  bytes: Uint8Array;
  type?: string;
  etag?: string;
}
export interface FakeStore {
  list(prefix: string): Promise<{ key: string; size: number; etag: string }[]>;
  get(key: string): Promise<FakeObject | null>;
  put(key: string, bytes: Uint8Array, type: string): Promise<void>;
  delete(key: string): Promise<void>;
}
export function memoryStore(): FakeStore & { objects: Map<string, FakeObject & { etag: string }> };
export function fakeS3(options: {
  accessKeyId: string;
  secretAccessKey: string;
  region?: string;
  buckets: Record<string, FakeStore>;
  pageSize?: number;
  now?: () => number;
}): { requests: { method: string; path: string; status: number }[]; handle(request: Request): Promise<Response> };
