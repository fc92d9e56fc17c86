// Identity documents and dispute evidence, streamed to an operator session (the API's file rules).
import { Hono } from 'hono';
import { fileResponse, openFile } from '../../files/files.service';
import type { ConsoleEnv } from '../console.http';
import { pathId } from '../console.params';

export const fileRoutes = new Hono<ConsoleEnv>();

fileRoutes.get('/files/:id', async (c) => {
  const { row, object } = await openFile(c.get('deps'), c.get('operator').auth, pathId(c));
  return fileResponse(row, object, 'private, no-store');
});
