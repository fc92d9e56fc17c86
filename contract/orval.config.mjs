// orval, as a client team would run it: a fetch client from the production document.
export default {
  api: {
    input: '../test/__snapshots__/openapi.production.json',
    output: { target: 'generated/orval/api.ts', client: 'fetch', mode: 'single' },
  },
};
