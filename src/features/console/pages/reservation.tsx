// One reservation (/console/reservations/:id): its parties, last tracked position and ledger lines.
import { Hono } from 'hono';
import { lineText } from '../../money';
import { getReservationView } from '../../reservations/reservation-views';
import { lastPosition } from '../../tracking/tracking.service';
import { assertSuperAdmin, page, view, type ConsoleEnv } from '../console.http';
import { Badge, money, shortDate, Table, userName } from '../console.layout';
import { pathId } from '../console.params';
import { reservationLedger } from '../console.queries';

export const reservationRoutes = new Hono<ConsoleEnv>();

reservationRoutes.get('/reservations/:id', async (c) => {
  assertSuperAdmin(c.get('operator'));
  const id = pathId(c);
  const deps = c.get('deps');
  const x = await getReservationView(deps.db, id);
  const [ledger, position] = await Promise.all([reservationLedger(deps, id), lastPosition(c.env, id).catch(() => null)]);
  const v = await view(c);
  return page(
    c,
    v,
    `${v.t('reservation')} ${x.r.reservationNumber}`,
    '/console/reservations',
    <>
      <div class="two">
        <section class="card">
          <dl class="facts">
            <dt>{v.t('status')}</dt>
            <dd>
              <Badge v={v} kind="reservation" text={x.r.status} />
            </dd>
            <dt>{v.t('reservation')}</dt>
            <dd>
              {x.a.departureCity} → {x.a.arrivalCity} · {x.a.departureDate}
            </dd>
            <dt>{v.t('sender')}</dt>
            <dd>
              <a href={`/console/users/${x.sender.id}`}>{userName(x.sender)}</a> ({x.sender.email})
            </dd>
            <dt>{v.t('carrier')}</dt>
            <dd>
              <a href={`/console/users/${x.carrier.id}`}>{userName(x.carrier)}</a> ({x.carrier.email})
            </dd>
            <dt>{v.t('total')}</dt>
            <dd>{money(v, x.r.totalAmountCents, x.r.currency)}</dd>
            <dt>{v.t('created')}</dt>
            <dd>{shortDate(x.r.createdAt)}</dd>
          </dl>
        </section>
        <section class="card">
          <h2>{v.t('tracking')}</h2>
          {position ? (
            <dl class="facts">
              <dt>{v.t('lastPosition')}</dt>
              <dd>
                {position.lat.toFixed(5)}, {position.lng.toFixed(5)}
              </dd>
              <dt>{v.t('when')}</dt>
              <dd>{shortDate(position.recordedAt)}</dd>
            </dl>
          ) : (
            <p class="muted">{v.t('noPosition')}</p>
          )}
        </section>
      </div>
      <section class="card">
        <h2>{v.t('ledger')}</h2>
        <Table
          v={v}
          id="ledger"
          columns={[['#'], [v.t('action')], [v.t('account')], [v.t('amount'), 'num'], [v.t('when'), 'wide']]}
          rows={ledger.map((l) => [
            l.entryId,
            <>
              {l.type}
              <br />
              <span class="muted">{lineText(l, v.locale)}</span>
            </>,
            l.account,
            money(v, l.amountCents, l.currency),
            shortDate(l.createdAt),
          ])}
        />
      </section>
    </>,
  );
});
