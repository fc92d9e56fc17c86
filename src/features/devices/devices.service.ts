// Push devices of the caller (CONTRACT section 16). A registration token is the device, whoever
// holds it: registering a token another account holds moves it (a phone changed hands or
// accounts), so one device never receives two people's notifications.
import { eq } from 'drizzle-orm';
import { readPage } from '../../db/statements';
import { devices, type DevicePlatform, type DeviceRow } from '../../db/schema';
import type { AuthUser, Deps } from '../../env';
import { notFound } from '../../errors';
import { orderBy, toPage, type PageParams } from '../../lib/pagination';
import { assertCanAccess } from '../../access/ownership';

export const toDevice = (row: DeviceRow) => ({ id: row.id, platform: row.platform, createdAt: row.createdAt });

export async function registerDevice(deps: Deps, auth: AuthUser, input: { token: string; platform: DevicePlatform }) {
  const now = new Date().toISOString();
  // One statement: a concurrent registration of the same token cannot leave two rows.
  const [row] = await deps.db
    .insert(devices)
    .values({ userId: auth.id, token: input.token, platform: input.platform, createdAt: now })
    .onConflictDoUpdate({ target: devices.token, set: { userId: auth.id, platform: input.platform, createdAt: now } })
    .returning();
  return toDevice(row);
}

export async function listDevices(deps: Deps, auth: AuthUser, p: PageParams<'createdAt'>) {
  const { db } = deps;
  const order = orderBy(p.sort, { createdAt: devices.createdAt }, devices.id);
  const { rows, total } = await readPage(db, devices, eq(devices.userId, auth.id), order, p);
  return toPage(rows.map(toDevice), total, p);
}

export async function deleteDevice(deps: Deps, auth: AuthUser, id: number) {
  const { db } = deps;
  const [row] = await db.select({ userId: devices.userId }).from(devices).where(eq(devices.id, id));
  if (!row) throw notFound('Device', id);
  assertCanAccess(auth, [row.userId], []);
  await db.delete(devices).where(eq(devices.id, id));
}
