// CONTRACT 25, what callers send: names people see refuse bidirectional controls and zero-width
// characters (one zod helper, 400 VALIDATION_ERROR with fieldErrors).
import { describe, expect, it } from 'vitest';
import { registerUser } from './helpers/auth';
import { anAgency, aUser } from './helpers/factories';
import { errorBody, post, put } from './helpers/http';

const INVISIBLE = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF'];

describe('names people see', () => {
  it('a first name, a last name or a username with a bidirectional or zero-width character is 400 with fieldErrors; the profile is unchanged', async () => {
    const reg = await registerUser({ firstName: 'Awa' });
    for (const ch of INVISIBLE) {
      const res = await put('/v1/api/user/me', { firstName: `a${ch}b` }, { token: reg.accessToken });
      expect(res.status).toBe(400);
      expect(errorBody(res)).toMatchObject({
        errorCode: 'VALIDATION_ERROR',
        fieldErrors: [expect.objectContaining({ field: 'firstName', rejectedValue: `a${ch}b` })],
      });
    }
    const both = await put('/v1/api/user/me', { lastName: 'Diop\u202Egnp.exe', username: 'awa\u200Bdiop' }, { token: reg.accessToken });
    expect(both.status).toBe(400);
    expect(both.body.fieldErrors.map((e: { field: string }) => e.field).sort()).toEqual(['lastName', 'username']);
    const me = await put('/v1/api/user/me', { firstName: 'Awa Ndèye' }, { token: reg.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.firstName).toBe('Awa Ndèye');
  });

  it('registration, agency and branch names refuse them too', async () => {
    const res = await post('/v1/api/auth/register', { email: `n${crypto.randomUUID().slice(0, 8)}@example.test`, password: 'Correct-horse-battery-1', firstName: 'a\u202Eb', lastName: 'Diop' });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors).toEqual([expect.objectContaining({ field: 'firstName' })]);
    const owner = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_VERIFIED_USER'] });
    const agency = await post('/v1/api/agencies', { name: 'Sahel\u2067 Express' }, { token: owner.token });
    expect(agency.status).toBe(400);
    expect(agency.body.fieldErrors).toEqual([expect.objectContaining({ field: 'name' })]);
    const boss = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_AGENCY_OWNER'] });
    const mine = await anAgency(boss);
    const branch = await post(`/v1/api/agencies/${mine.id}/branches`, { name: 'Dakar\uFEFF', city: 'Dakar' }, { token: boss.token });
    expect(branch.status).toBe(400);
    expect(branch.body.fieldErrors).toEqual([expect.objectContaining({ field: 'name' })]);
  });
});
