// Minimal HTML pages for browser-facing endpoints (callbacks, sandbox checkout, onboarding return).
const escape = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

export function htmlPage(title: string, message: string, body = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}button{font-size:1rem;padding:.6rem 1.4rem;margin-right:.8rem}</style>
</head><body><h1>${escape(title)}</h1><p>${escape(message)}</p>${body}</body></html>`;
}

export { escape as escapeHtml };
