// TRANSITIONAL: moved to statements.ts (compiled, compiledShapes); removed once every feature imports from there.
export { compiled as compiledQuery } from './statements';

/** TRANSITIONAL: keyed by hand; use compiledShapes, whose key is derived from the shape. */
export function perShape<A extends unknown[], T>(create: (...args: A) => T, max = 256) {
  const shapes = new Map<string, T>();
  return (key: string, ...args: A): T => {
    let shape = shapes.get(key);
    if (!shape) {
      shape = create(...args);
      if (shapes.size < max) shapes.set(key, shape);
    }
    return shape;
  };
}
