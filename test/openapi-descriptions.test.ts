// Every operation of the document says in its own words what it does (its effects, its notable
// refusals, who may call it beyond the role): a summary is a title, not a description, and
// finishDocument no longer copies it into a missing description (issue 32, CONTRACT section 23).
import { createExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../src/index';
import { finishDocument, type OpenApiDocument } from '../src/features/docs/document';
import { get } from './helpers/http';
import { PRODUCTION_ENV } from './helpers/production';

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
}
type Doc = { paths: Record<string, Record<string, Operation>> };

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const ACCESS = 'Who may call it:';
/** Appended by idempotent() to the route's own text: not a description of what the operation does. */
const IDEMPOTENCY_NOTE = 'Honours the optional Idempotency-Key header';
/** Shorter than this, a text cannot say what an operation does, changes and refuses. */
const MIN_OWN_LENGTH = 60;

/** The route's own text: the paragraphs before the generated access sentence, without the idempotency note. */
function ownText(description: string | undefined): string {
  const before = (description ?? '').split(`\n\n${ACCESS}`)[0];
  if (before.startsWith(ACCESS)) return '';
  return before
    .split('\n\n')
    .filter((paragraph) => !paragraph.startsWith(IDEMPOTENCY_NOTE))
    .join('\n\n')
    .trim();
}

const sameText = (a: string, b: string) => a.trim().replace(/\.$/, '').toLowerCase() === b.trim().replace(/\.$/, '').toLowerCase();

/** Every operation whose own description is missing, a copy of its summary, or too short to say anything. */
function undescribed(doc: Doc): string[] {
  const found: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const own = ownText(op.description);
      const name = `${method.toUpperCase()} ${path}`;
      if (own === '') found.push(`${name}: no description of its own`);
      else if (op.summary && sameText(own, op.summary)) found.push(`${name}: the description repeats the summary`);
      else if (own.length < MIN_OWN_LENGTH) found.push(`${name}: "${own}" is shorter than ${MIN_OWN_LENGTH} characters`);
    }
  }
  return found;
}

const operations = (doc: Doc) => Object.values(doc.paths).flatMap((item) => METHODS.flatMap((m) => (item[m] ? [item[m]] : [])));

describe('operation descriptions', () => {
  it('every operation of the local document describes itself, beyond its summary, before the access sentence', async () => {
    const res = await get('/v1/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body as Doc;
    expect(operations(doc).length).toBeGreaterThan(200);
    expect(undescribed(doc)).toEqual([]);
    // The generated "Who may call it" sentence follows the route's own text, once.
    for (const op of operations(doc)) {
      expect(op.description!.split(ACCESS)).toHaveLength(2);
      expect(op.description!.startsWith(ACCESS)).toBe(false);
    }
  });

  it('every operation of the production document describes itself too', async () => {
    const res = await worker.fetch(new Request('https://api.test/v1/api/openapi.json'), PRODUCTION_ENV, createExecutionContext());
    expect(res.status).toBe(200);
    expect(undescribed((await res.json()) as Doc)).toEqual([]);
  });

  it('finishDocument copies no summary into a missing description: the check above then names the operation', () => {
    const doc = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      security: [{ bearerAuth: [] }],
      paths: {
        '/v1/api/probe': {
          get: { operationId: 'probe', summary: 'A probe', responses: { 200: { description: 'ok' } } },
          post: {
            operationId: 'probeWrite',
            summary: 'Write a probe',
            description: 'Writes the probe row and answers it; a probe already written is 409 ALREADY_EXISTS.',
            responses: { 201: { description: 'ok' } },
          },
        },
      },
    } as unknown as OpenApiDocument;
    const finished = finishDocument(doc, '/v1/api') as unknown as Doc;
    const probe = finished.paths['/v1/api/probe'];
    expect(probe.get.description).toBe('Who may call it: any signed-in user (access token); which records they may reach is said above.');
    expect(probe.post.description).toBe(
      'Writes the probe row and answers it; a probe already written is 409 ALREADY_EXISTS.\n\n' +
        'Who may call it: any signed-in user (access token); which records they may reach is said above.',
    );
    expect(undescribed(finished)).toEqual(['GET /v1/api/probe: no description of its own']);
  });

  it('the check refuses a copied summary, a bare idempotency note and a too short text', () => {
    const op = (summary: string, description: string) => ({ summary, description: `${description}\n\n${ACCESS} anyone.` });
    const doc: Doc = {
      paths: {
        '/a': { get: op('One alert (owner)', 'One alert (owner).') },
        '/b': { post: op('Save a search', `${IDEMPOTENCY_NOTE}: the same key and body within 24 h replays the first response.`) },
        '/c': { put: op('Replace an alert', 'Replaces the alert.') },
        '/d': { delete: op('Delete an alert', 'Deletes the alert: new trips no longer notify the caller through it. Another user\'s alert is 403.') },
      },
    };
    expect(undescribed(doc)).toEqual([
      'GET /a: the description repeats the summary',
      'POST /b: no description of its own',
      'PUT /c: "Replaces the alert." is shorter than 60 characters',
    ]);
  });
});
