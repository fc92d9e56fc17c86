// The one ownership check: every rule of src/access/ (and every owner check of a service) ends here.
import type { AuthUser } from '../env';
import { accessDenied } from '../errors';
import { hasRole, type Role } from '../middleware/auth';

/** Is the caller one of `ownerIds`, or does it hold one of `staffRoles` (admins by default)? */
export function canAccess(auth: AuthUser, ownerIds: readonly (number | null | undefined)[], staffRoles: Role[] = ['ROLE_ADMIN']): boolean {
  return ownerIds.includes(auth.id) || (staffRoles.length > 0 && hasRole(auth, ...staffRoles));
}

/** canAccess(), or ACCESS_DENIED. A refusal that says more tests canAccess() and throws its own accessDenied(). */
export function assertCanAccess(auth: AuthUser, ownerIds: readonly (number | null | undefined)[], staffRoles: Role[] = ['ROLE_ADMIN']): void {
  if (!canAccess(auth, ownerIds, staffRoles)) throw accessDenied();
}
