// The frame of the small HTML pages a person uses on local runs (the sandbox providers' pages):
// one head, one base style, the title as the heading. Values are escaped by hono's `html`.
import { html, raw } from 'hono/html';

const BASE_STYLE =
  'body { font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto; padding: 0 1rem; } ' +
  'button { font-size: 1rem; padding: .6rem 1.4rem; margin-right: .8rem; }';

/** `style`: extra CSS of this page (trusted, written in the source); `lang`: the page's language. */
export const htmlPage = (title: string, body: unknown, style = '', lang: 'en' | 'fr' = 'en') => html`<!doctype html>
  <html lang="${lang}">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>${title}</title>
      <style>
        ${raw(`${BASE_STYLE} ${style}`)}
      </style>
    </head>
    <body>
      <h1>${title}</h1>
      ${body}
    </body>
  </html>`;

/** An HTML answer in a route's OpenAPI responses. */
export const htmlResponse = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' as const } } } });
