// The change policy (docs/VERSIONING.md, CONTRACT section 23): an operation being retired is
// wrapped in retired(); a probe route registered only here shows what that does to its answers
// (Deprecation, Sunset, Link on successes and errors alike) and to the document (deprecated: true,
// the dates, the headers documented). No route of the API is deprecated today.
import { createRoute, z } from '@hono/zod-openapi';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createRouter } from '../src/env';
import { toErrorResponse } from '../src/errors';
import { finishDocument } from '../src/features/docs/document';
import { retired, retirementHeaders } from '../src/lib/deprecation';
import { jsonContent, authErrorResponses, withRole } from '../src/lib/openapi';
import { aUser, anAdmin } from './helpers/factories';
import { get } from './helpers/http';

const RETIREMENT = { since: '2026-11-27', sunset: '2027-06-01', successor: '/v1/api/probe/v2' };

function probeApp() {
  const app = createRouter();
  app.openapi(
    createRoute(
      retired(
        {
          method: 'get',
          operationId: 'getProbe',
          path: '/v1/api/probe',
          summary: 'A probe route',
          ...withRole('ROLE_ADMIN'),
          responses: { 200: jsonContent(z.object({ ok: z.boolean() }).openapi('Probe'), 'Probe'), ...authErrorResponses() },
        },
        RETIREMENT,
      ),
    ),
    (c) => c.json({ ok: true }, 200),
  );
  app.onError((err, c) => toErrorResponse(c, err));
  return app;
}

describe('retiring an operation', () => {
  it('its answers carry Deprecation (RFC 9745), Sunset (RFC 8594) and the successor link, errors included', async () => {
    const app = probeApp();
    const admin = await anAdmin();
    const ok = await app.request('/v1/api/probe', { headers: { Authorization: `Bearer ${admin.token}` } }, env);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true });
    expect(ok.headers.get('Deprecation')).toBe(`@${Date.UTC(2026, 10, 27) / 1000}`);
    expect(ok.headers.get('Sunset')).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
    expect(ok.headers.get('Link')).toBe('</v1/api/probe/v2>; rel="successor-version"');

    const stranger = await aUser();
    const refused = await app.request('/v1/api/probe', { headers: { Authorization: `Bearer ${stranger.token}` } }, env);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('Deprecation')).toBe(ok.headers.get('Deprecation'));
    expect(refused.headers.get('Sunset')).toBe(ok.headers.get('Sunset'));
    const anonymous = await app.request('/v1/api/probe', {}, env);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('Sunset')).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
  });

  it('the document marks it deprecated, with the dates, who may call it and the headers of every answer', () => {
    const app = probeApp();
    const doc = finishDocument(
      app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'probe', version: '1' }, security: [{ bearerAuth: [] }] }),
      '/v1/api',
    );
    expect(doc.paths!['/v1/api/probe'].get!['x-required-roles' as 'summary']).toEqual(['ROLE_ADMIN']);
    const op = doc.paths!['/v1/api/probe'].get!;
    expect(op.deprecated).toBe(true);
    expect(op.description).toBe(
      'Deprecated since 2026-11-27; it may be removed after 2027-06-01 (Sunset header); use /v1/api/probe/v2 instead.\n\n' +
        'Who may call it: signed-in users holding ROLE_ADMIN (a super-admin holds every role).',
    );
    for (const status of ['200', '401', '403']) {
      const headers = (op.responses![status] as { headers: Record<string, unknown> }).headers;
      expect(headers).toMatchObject({
        Deprecation: { $ref: '#/components/headers/Deprecation' },
        Sunset: { $ref: '#/components/headers/Sunset' },
        Link: { $ref: '#/components/headers/Link' },
      });
    }
  });

  it('refuses dates that are not days, and a sunset before the deprecation', () => {
    expect(() => retirementHeaders({ since: '27/11/2026', sunset: '2027-06-01' })).toThrow('not a YYYY-MM-DD date');
    expect(() => retired({ method: 'get', path: '/x', responses: {} }, { since: '2027-06-01', sunset: '2027-01-01' })).toThrow('after the deprecation');
  });

  it('no operation of the API is deprecated today, and none answers the headers', async () => {
    const doc = (await get('/v1/api/openapi.json')).body;
    const deprecated = Object.entries<Record<string, { deprecated?: boolean }>>(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).filter(([, op]) => op.deprecated).map(([method]) => `${method} ${path}`),
    );
    expect(deprecated).toEqual([]);
    const health = await get('/v1/api/health');
    expect(health.headers.get('Deprecation')).toBeNull();
    expect(health.headers.get('Sunset')).toBeNull();
  });
});
