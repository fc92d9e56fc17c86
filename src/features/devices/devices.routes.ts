// /devices: the caller's push registrations (CONTRACT section 16).
import { createRoute, z } from '@hono/zod-openapi';
import { DEVICE_PLATFORMS } from '../../db/schema';
import { createRouter } from '../../env';
import { authErrorResponses, jsonBody, jsonContent, signedIn } from '../../lib/openapi';
import { PageSchema, pageQuery } from '../../lib/pagination';
import { IdParams } from '../../validation';
import { deleteDevice, listDevices, registerDevice } from './devices.service';

const DeviceInput = z
  .object({
    token: z.string().trim().min(1).max(4096).openapi({ description: 'The FCM registration token of the app on this device' }),
    platform: z.enum(DEVICE_PLATFORMS),
  })
  .openapi('DeviceRegistration');

const DeviceSchema = z
  .object({ id: z.number().int(), platform: z.enum(DEVICE_PLATFORMS), createdAt: z.string().openapi({ format: 'date-time' }) })
  .openapi('Device');

const tags = ['Notifications'];

export const devicesRouter = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'registerDevice',
      path: '/devices',
      tags,
      summary: 'Register this device for push; a token another account held moves to the caller',
      description: 'Records the device\'s push registration token (FCM) and platform (ANDROID, IOS, WEB) for the caller, so that notifications whose kind has push on reach it. A token is one device: registering a token already held, by the caller or another account, moves it to the caller in the same statement, so a phone never receives two people\'s notifications. Call it after each sign-in and whenever the token changes.',
      ...signedIn(),
      request: { body: jsonBody(DeviceInput) },
      responses: { 201: jsonContent(DeviceSchema, 'Registered'), ...authErrorResponses() },
    }),
    async (c) => c.json(await registerDevice(c.get('deps'), c.get('auth'), c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listDevices',
      path: '/devices',
      tags,
      summary: "The caller's registered devices, newest first",
      description: 'A page of the caller\'s registered push devices (id, platform, when registered), newest first; the tokens themselves are not returned.',
      ...signedIn(),
      request: { query: pageQuery({ sortable: ['createdAt'], defaultSort: 'createdAt,desc' }) },
      responses: { 200: jsonContent(PageSchema(DeviceSchema, 'DevicePage'), 'A page of devices'), ...authErrorResponses() },
    }),
    async (c) => c.json(await listDevices(c.get('deps'), c.get('auth'), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'delete',
      operationId: 'deleteDevice',
      path: '/devices/{id}',
      tags,
      summary: 'Stop push to a device (owner)',
      description: 'Forgets the device: push notifications stop going to it (an app calls it at sign-out). Another user\'s device is 403 ACCESS_DENIED (no admin override), an unknown id 404 RESOURCE_NOT_FOUND.',
      ...signedIn(),
      request: { params: IdParams },
      responses: { 204: { description: 'Deleted' }, ...authErrorResponses(404) },
    }),
    async (c) => {
      await deleteDevice(c.get('deps'), c.get('auth'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );
