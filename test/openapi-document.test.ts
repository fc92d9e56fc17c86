// The OpenAPI document is the contract client teams generate code from: any change to it shows
// up here as a diff of test/__snapshots__/openapi.json, to be reviewed and accepted on purpose
// (`npx vitest run test/openapi-document.test.ts -u`).
import { expect, it } from 'vitest';
import { get } from './helpers/http';

it('the OpenAPI document is the reviewed one', async () => {
  const res = await get('/v1/api/openapi.json');
  expect(res.status).toBe(200);
  await expect(JSON.stringify(res.body, null, 2) + '\n').toMatchFileSnapshot('./__snapshots__/openapi.json');
});
