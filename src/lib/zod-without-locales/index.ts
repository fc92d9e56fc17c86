// What the bundle gets for `import ... from 'zod'` (wrangler.toml [alias]). @hono/zod-openapi hands
// zod's `z` namespace to a function as a value, so esbuild has to keep the whole namespace object, and
// with it `z.locales` and `z.core.locales`: every translation zod ships, about 250 KiB minified, for
// messages this API never shows (src/messages has its own catalogue).
export * from './namespace';
import * as z from './namespace';
export { z, z as default };
