export interface StoredObject {
  key: string;
  size: number;
  etag: string;
}
export interface S3Bucket {
  label: string;
  list(prefix?: string): Promise<StoredObject[]>;
  get(key: string): Promise<Response>;
  put(key: string, body: BodyInit | ArrayBuffer | ArrayBufferView, contentType?: string): Promise<void>;
  delete(key: string): Promise<void>;
}
export function s3Bucket(options: {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region?: string;
  fetch?: typeof fetch;
}): S3Bucket;
export function mirrorPlan(source: StoredObject[], destination: StoredObject[], prefix?: string): { copy: string[]; remove: string[]; unchanged: number };
export function mirror(source: S3Bucket, destination: S3Bucket, options?: { prefix?: string; dryRun?: boolean }): Promise<{ copied: number; deleted: number; unchanged: number }>;
export function restoreMissing(backup: S3Bucket, target: S3Bucket, options?: { prefix?: string; dryRun?: boolean }): Promise<{ copied: number; present: number }>;
