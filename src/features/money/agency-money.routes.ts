// An agency's money (CONTRACT sections 10 and 12): /agencies/{id}/wallet, /agencies/{id}/withdrawals/**
// and /agencies/{id}/pay-connect/**, built by the same route factories as the caller's own routes.
// Only the owner moves money or changes settings (a super-admin too, as for every agency
// management route); admins may also read the figures.
import { createRouter } from '../../env';
import { assertCanAccess } from '../../access/ownership';
import { IdParams } from '../../validation';
import { payConnectRoutes } from './pay-connect/pay-connect.routes';
import { payoutAccountRoutes } from './payout-accounts/payout-accounts.routes';
import { CALLER_SCOPE, type OwnerScope } from './wallet/owner-scope';
import { walletRoutes } from './wallet/wallet.routes';
import { withdrawalRoutes } from './withdrawals/withdrawals.routes';
import { agencyForOwner, getAgency } from '../../access/agency-scope';

export const AGENCY_SCOPE: OwnerScope = {
  prefix: '/agencies/{id}',
  walletPath: '/agencies/{id}/wallet',
  params: IdParams,
  whose: 'the agency’s',
  who: {
    read: 'The agency’s owner and admins may read it (anyone else: 403 ACCESS_DENIED); an unknown agency is 404 RESOURCE_NOT_FOUND.',
    manage: 'Only the agency’s owner or a super-admin (anyone else: 403 ACCESS_DENIED); an unknown agency is 404 RESOURCE_NOT_FOUND.',
  },
  operationOwner: 'Agency',
  extraTags: ['Agencies'],
  errorStatuses: [404],
  resolve: async (c, access) => {
    const id = IdParams.parse(c.req.param()).id;
    if (access === 'manage') return { type: 'AGENCY', id: (await agencyForOwner(c.get('deps'), c.get('auth'), id)).id };
    const agency = await getAgency(c.get('deps'), id);
    assertCanAccess(c.get('auth'), [agency.ownerId], ['ROLE_ADMIN']);
    return { type: 'AGENCY', id: agency.id };
  },
  // The agency's contact address, else its owner's (the provider's form asks for it anyway).
  contactEmail: async (c, owner) => {
    const agency = await getAgency(c.get('deps'), owner.id);
    return agency.email ?? CALLER_SCOPE.contactEmail(c, { type: 'USER', id: agency.ownerId });
  },
};

export const agencyMoneyRouter = createRouter()
  .route('/', walletRoutes(AGENCY_SCOPE))
  .route('/', withdrawalRoutes(AGENCY_SCOPE))
  .route('/', payConnectRoutes(AGENCY_SCOPE))
  .route('/', payoutAccountRoutes(AGENCY_SCOPE));
