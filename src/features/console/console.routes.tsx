// The operator console (CONTRACT section 18): HTML pages at (root) /console, outside the API and
// its OpenAPI document (a plain Hono router). Every action calls the service the API calls, with
// its rules and errors, through `act` (CSRF, one-time form token, audit by the service with the IP).
// Each page is one file of pages/ (its routes, reads and view); this file only assembles them
// behind the shared middleware, in order: same-origin posts, sign-in, the operator check, the pages.
import { Hono } from 'hono';
import { notFound } from '../../errors';
import { errorPage, requireOperator, requireTwoFactor, sameOriginPosts, type ConsoleEnv } from './console.http';
import { agenciesRoutes } from './pages/agencies';
import { auditRoutes } from './pages/audit';
import { deliveriesRoutes } from './pages/deliveries';
import { disputeRoutes } from './pages/dispute';
import { disputesRoutes } from './pages/disputes';
import { fileRoutes } from './pages/files';
import { kycQueueRoutes } from './pages/kyc-queue';
import { kycRecordRoutes } from './pages/kyc-record';
import { incidentsRoutes } from './pages/incidents';
import { metricsRoutes } from './pages/metrics';
import { overviewRoutes } from './pages/overview';
import { pausesRoutes } from './pages/pauses';
import { reconciliationRoutes } from './pages/reconciliation';
import { privacyRoutes } from './pages/privacy';
import { reservationRoutes } from './pages/reservation';
import { reservationsRoutes } from './pages/reservations';
import { signInRoutes, signOutRoutes } from './pages/sign-in';
import { travelProofRoutes } from './pages/travel-proofs';
import { twoFactorRoutes } from './pages/two-factor';
import { userRoutes } from './pages/user';
import { usersRoutes } from './pages/users';
import { withdrawalsRoutes } from './pages/withdrawals';

export const consoleRouter = new Hono<ConsoleEnv>();

consoleRouter.onError(errorPage);
consoleRouter.use('*', sameOriginPosts);
consoleRouter.route('/', signInRoutes);
consoleRouter.use('*', requireOperator);
consoleRouter.use('*', requireTwoFactor);

const PAGES = [
  signOutRoutes,
  twoFactorRoutes,
  overviewRoutes,
  fileRoutes,
  kycQueueRoutes,
  kycRecordRoutes,
  travelProofRoutes,
  disputesRoutes,
  disputeRoutes,
  withdrawalsRoutes,
  usersRoutes,
  userRoutes,
  agenciesRoutes,
  reservationsRoutes,
  reservationRoutes,
  deliveriesRoutes,
  metricsRoutes,
  incidentsRoutes,
  pausesRoutes,
  reconciliationRoutes,
  privacyRoutes,
  auditRoutes,
];
for (const pageRoutes of PAGES) consoleRouter.route('/', pageRoutes);

/** Unknown console paths: the console's 404 page, not the API's JSON. */
consoleRouter.all('*', () => {
  throw notFound('Page');
});
