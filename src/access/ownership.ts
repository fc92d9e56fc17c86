// The one ownership check: every rule of src/access/ (and every owner check of a service) ends here.
import type { AuthUser } from '../env';
import { accessDenied } from '../errors';
import { hasRole, type Role } from '../middleware/auth';

/**
 * The caller must be one of `ownerIds` or hold one of `staffRoles` (admins by default). Throws
 * ACCESS_DENIED otherwise, with `denied` (accessDenied's arguments) when the refusal says more.
 */
export function assertCanAccess(
  auth: AuthUser,
  ownerIds: readonly (number | null | undefined)[],
  staffRoles: Role[] = ['ROLE_ADMIN'],
  ...denied: Parameters<typeof accessDenied>
): void {
  if (ownerIds.includes(auth.id)) return;
  if (staffRoles.length > 0 && hasRole(auth, ...staffRoles)) return;
  throw accessDenied(...denied);
}
