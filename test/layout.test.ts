/// <reference types="vite/client" />
// The layout of src/features (docs/architecture.md): feature folders import each other in one
// direction only, and a feature reuses another's shapes from its *.schemas.ts, never its routes.
import { describe, expect, it } from 'vitest';

const SOURCES = import.meta.glob('../src/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;

function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else if (part !== '.') out.push(part);
  }
  return out.join('/');
}

/** The file a relative import names, as import_cycles.py resolves it (extension or index file). */
function resolve(from: string, spec: string): string | undefined {
  const base = normalize(`${from.slice(0, from.lastIndexOf('/'))}/${spec}`);
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((f) => f in SOURCES);
}

const imports = Object.entries(SOURCES).flatMap(([file, text]) =>
  [...text.matchAll(IMPORT)].flatMap(([, spec]) => {
    const target = resolve(file, spec);
    return target ? [{ file, target }] : [];
  }),
);

const featureOf = (file: string) => /^\.\.\/src\/features\/([^/]+)\//.exec(file)?.[1];

/** The feature folders that reach each other through their imports (strongly connected, Tarjan). */
function folderCircles(): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const { file, target } of imports) {
    const [from, to] = [featureOf(file), featureOf(target)];
    if (!from || !to || from === to) continue;
    edges.set(from, (edges.get(from) ?? new Set()).add(to));
    if (!edges.has(to)) edges.set(to, new Set());
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of edges.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const circle: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      circle.push(w);
      if (w === v) break;
    }
    if (circle.length > 1) circles.push(circle.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return circles;
}

describe('feature folders', () => {
  it('sees the imports of the whole tree', () => {
    expect(Object.keys(SOURCES).length).toBeGreaterThan(100);
    expect(imports.some(({ file, target }) => featureOf(file) === 'auth' && featureOf(target) === 'users')).toBe(true);
  });

  it('import each other in one direction: no circle between feature folders', () => {
    expect(folderCircles()).toEqual([]);
  });

  it("never import another feature's routes file: shared shapes live in <feature>.schemas.ts", () => {
    const crossing = imports
      .filter(({ file, target }) => featureOf(file) && featureOf(target) && featureOf(file) !== featureOf(target))
      .filter(({ target }) => /\.routes\.tsx?$/.test(target))
      .map(({ file, target }) => `${file} -> ${target}`);
    expect(crossing).toEqual([]);
  });
});

describe('providers', () => {
  // Each provider is chosen once per deps (providers/chosen.ts); a service that called a factory
  // (or `new`) itself would build its own, from env, on every call.
  const FACTORIES = /\b(getPaymentProvider|kycProvider|emailProvider|pushProvider|smsProvider|verifyGoogleIdToken|verifyAppleIdentityToken|new \w+Provider)(?=\()/;

  it('are built only by providers/chosen.ts: services take them from deps.providers', () => {
    const callers = Object.entries(SOURCES)
      .filter(([file]) => !file.startsWith('../src/providers/'))
      .filter(([, text]) => FACTORIES.test(text))
      .map(([file, text]) => `${file}: ${FACTORIES.exec(text)![1]}`);
    expect(callers).toEqual([]);
  });
});
