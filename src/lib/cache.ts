// Named in-memory caches (per isolate) with hit/miss counters, so super-admins can see and purge
// them (GET /superadmin/cache/stats, DELETE /superadmin/cache/{name}). Each worker isolate holds its
// own copy: figures and purges concern the isolate that answers the request.

export interface CacheStats {
  name: string;
  hits: number;
  misses: number;
  size: number;
}

export class NamedCache<V> {
  private readonly entries = new Map<string, V>();
  private hits = 0;
  private misses = 0;

  constructor(readonly name: string) {}

  /** The cached value, or `load()`'s result stored under `key`. */
  getOrLoad(key: string, load: () => V): V {
    if (this.entries.has(key)) {
      this.hits++;
      return this.entries.get(key) as V;
    }
    this.misses++;
    const value = load();
    this.entries.set(key, value);
    return value;
  }

  /** Empties the cache and its counters; returns how many entries were dropped. */
  clear(): number {
    const size = this.entries.size;
    this.entries.clear();
    this.hits = 0;
    this.misses = 0;
    return size;
  }

  stats(): CacheStats {
    return { name: this.name, hits: this.hits, misses: this.misses, size: this.entries.size };
  }
}

const registry = new Map<string, NamedCache<unknown>>();

/** The cache of this name, created on first use (one per name per isolate). */
export function namedCache<V>(name: string): NamedCache<V> {
  let cache = registry.get(name);
  if (!cache) {
    cache = new NamedCache<unknown>(name);
    registry.set(name, cache);
  }
  return cache as NamedCache<V>;
}

export const findCache = (name: string): NamedCache<unknown> | undefined => registry.get(name);

export const allCacheStats = (): CacheStats[] => [...registry.values()].map((c) => c.stats()).sort((a, b) => a.name.localeCompare(b.name));
