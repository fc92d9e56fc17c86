// The site's icon: browsers ask every origin for /favicon.ico, and a 404 there fills logs and
// consoles with noise on every page (console, recipient page, sandboxes). An SVG parcel, served at
// the path browsers request; every current browser takes an SVG icon by its content type.
import type { Context } from 'hono';

const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#141b2d"/><path d="M16 6 26 11v10l-10 5-10-5V11z" fill="#e0701b"/><path d="M6 11l10 5 10-5M16 16v10" stroke="#141b2d" stroke-width="1.6" fill="none"/></svg>`;

export const favicon = (c: Context) =>
  c.body(ICON, 200, { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=86400' });
