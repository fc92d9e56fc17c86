// The reservations (/console/reservations): by status, or found by their number.
import { Hono } from 'hono';
import { RESERVATION_STATUSES } from '../../../db/schema';
import { listReservationViews, RESERVATION_SORT_COLUMNS } from '../../reservations/reservation-views';
import { assertSuperAdmin, page, view, type ConsoleEnv } from '../console.http';
import { Badge, Field, ListCard, money, pageInfo, shortDate, StatusSelect, type FormState } from '../console.layout';
import { listPage, oneOf } from '../console.params';
import { reservationIdByNumber } from '../console.queries';

export const reservationsRoutes = new Hono<ConsoleEnv>();

const RESERVATION_SORTS = Object.keys(RESERVATION_SORT_COLUMNS) as (keyof typeof RESERVATION_SORT_COLUMNS)[];

const reservationsPaging = listPage(RESERVATION_SORTS, 'createdAt,desc');

reservationsRoutes.get('/reservations', async (c) => {
  assertSuperAdmin(c.get('operator'));
  const number = (c.req.query('number') ?? '').trim();
  let flash = null;
  if (number) {
    const id = await reservationIdByNumber(c.get('deps'), number);
    if (id !== null) return c.redirect(`/console/reservations/${id}`, 303);
  }
  const v = await view(c);
  if (number) flash = { kind: 'error' as const, text: v.t('notFoundNumber') };
  const status = oneOf(RESERVATION_STATUSES, c.req.query('status'));
  const p = reservationsPaging(c);
  const { rows, total } = await listReservationViews(c.get('deps').db, status, p.sort, p);
  const state: FormState = { values: { number }, errors: number ? { number: v.t('notFoundNumber') } : {} };
  return page(
    c,
    { ...v, flash: v.flash ?? flash },
    v.t('reservations'),
    '/console/reservations',
    <ListCard
      v={v}
      path="/console/reservations"
      search
      button={v.t('find')}
      filters={
        <>
          <Field name="number" label={v.t('findByNumber')} state={state} idPrefix="q" />
          <StatusSelect v={v} kind="reservation" values={RESERVATION_STATUSES} value={status} />
        </>
      }
      query={{ status }}
      page={pageInfo(p, total)}
      columns={[[v.t('number')], [v.t('status')], [v.t('sender'), 'wide'], [v.t('carrier'), 'wide'], [v.t('total'), 'num'], [v.t('created'), 'wide']]}
      rows={rows.map((x) => [
        <a class="ref" href={`/console/reservations/${x.r.id}`}>{x.r.reservationNumber}</a>,
        <Badge v={v} kind="reservation" text={x.r.status} />,
        x.sender.email,
        x.carrier.email,
        money(v, x.r.totalAmountCents, x.r.currency),
        shortDate(x.r.createdAt),
      ])}
    />,
    number ? 404 : 200,
  );
});
