// Incidents (/console/incidents, super-admins): what the watchdog opened (features/watchdog), the
// open ones first, then the resolved ones newest first; each with its rule, since when and for how
// long, and the alerts it caused: by which channel, and whether the message left (the same list as
// GET /superadmin/incidents).
import { Hono } from 'hono';
import { appConfig } from '../../../config';
import { listIncidents, type Incident, type IncidentAlert } from '../../watchdog/incidents';
import { assertSuperAdmin, page, view, type ConsoleEnv } from '../console.http';
import { codeLabel } from '../console.i18n';
import { Badge, Pager, pageInfo, shortDate, Table, type View } from '../console.layout';
import { listPage } from '../console.params';

export const incidentsRoutes = new Hono<ConsoleEnv>();

const PATH = '/console/incidents';
/** Open incidents are one per rule (and cron job) at most: one page holds them all. */
const ALL_OPEN = { page: 0, size: 100, sort: { field: 'openedAt', direction: 'desc' } } as const;
const resolvedPaging = listPage(['openedAt'] as const, 'openedAt,desc');

/** 25 min, 3 h 05, 2 d 4 h: how long between two instants, in the reader's units. */
function elapsed(v: View, fromIso: string, toIso: string): string {
  const minutes = Math.max(0, Math.floor((Date.parse(toIso) - Date.parse(fromIso)) / 60_000));
  const [d, h, m] = [Math.floor(minutes / 1440), Math.floor((minutes % 1440) / 60), minutes % 60];
  const day = v.locale === 'fr' ? 'j' : 'd';
  if (d > 0) return `${d} ${day} ${h} h`;
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')}`;
  return `${m} min`;
}

const CHANNEL_WORDS = { EMAIL: 'alertEmail', SMS: 'alertSms', WEBHOOK: 'alertWebhook', PUSH: 'alertPush' } as const;

/** The alerts of one event (opening or resolution): each channel and whether it left. */
function AlertLine({ v, label, alerts }: { v: View; label: string; alerts: IncidentAlert[] }) {
  if (alerts.length === 0) return null;
  return (
    <div class="alerts">
      <span class="muted">{label} </span>
      {alerts.map((a) => (
        <span class="when" title={a.lastError ?? (a.sentAt ? shortDate(a.sentAt) : undefined)} data-channel={a.channel}>
          {v.t(CHANNEL_WORDS[a.channel])} <Badge v={v} kind="delivery" text={a.status} />{' '}
        </span>
      ))}
    </div>
  );
}

function AlertsCell({ v, incident }: { v: View; incident: Incident }) {
  if (incident.alerts.length === 0) return <span class="muted">{v.t('noAlertSent')}</span>;
  const of = (event: IncidentAlert['event']) => incident.alerts.filter((a) => a.event === event);
  return (
    <>
      <AlertLine v={v} label={v.t('alertOnOpening')} alerts={of('OPENED')} />
      <AlertLine v={v} label={v.t('alertOnResolution')} alerts={of('RESOLVED')} />
    </>
  );
}

function IncidentCell({ v, incident }: { v: View; incident: Incident }) {
  return (
    <>
      <strong>
        #{incident.id} {incident.title}
      </strong>
      <br />
      <span class={`badge ${incident.severity === 'PAGE' ? 'err' : 'warn'}`}>{v.t(incident.severity === 'PAGE' ? 'severityPage' : 'severityTicket')}</span>{' '}
      <span class="muted">{incident.rule}</span>
    </>
  );
}

/** Where alerts go now, so an operator sees at once that nobody would be told (the webhook by its host only: its path is a secret). */
function channelsNow(v: View, env: Env): string {
  const { email, sms, webhook } = appConfig(env).alerts;
  const set = [email && `${v.t('alertEmail')} ${email}`, sms && `${v.t('alertSms')} ${sms}`, webhook && `${v.t('alertWebhook')} ${new URL(webhook.url).host}`].filter(Boolean);
  return set.length > 0 ? v.t('alertChannelsNow', { channels: set.join(' · ') }) : v.t('alertChannelsNone');
}

incidentsRoutes.get('/incidents', async (c) => {
  assertSuperAdmin(c.get('operator'));
  const v = await view(c);
  const deps = c.get('deps');
  const p = resolvedPaging(c);
  const [open, resolved] = await Promise.all([listIncidents(deps, 'OPEN', ALL_OPEN, v.locale), listIncidents(deps, 'RESOLVED', p, v.locale)]);
  const now = new Date().toISOString();
  return page(
    c,
    v,
    v.t('incidents'),
    PATH,
    <>
      <section class="card" aria-labelledby="incidents-open-title">
        <h2 id="incidents-open-title">{v.t('incidentsOpen', { n: open.total })}</h2>
        <p class="help">{v.t('incidentsHelp')}</p>
        <p class="help" id="alert-channels">
          {channelsNow(v, c.env)}
        </p>
        <Table
          v={v}
          id="incidents-open"
          columns={[[v.t('incident')], [v.t('summary')], [v.t('since')], [v.t('lastSeen')], [v.t('alerts')]]}
          rows={open.content.map((i) => [
            <IncidentCell v={v} incident={i} />,
            <span class="reason">{i.summary}</span>,
            <>
              {shortDate(i.openedAt)}
              <br />
              <span class="muted">{v.t('openFor', { duration: elapsed(v, i.openedAt, now) })}</span>
            </>,
            shortDate(i.lastSeenAt),
            <AlertsCell v={v} incident={i} />,
          ])}
        />
      </section>
      <section class="card" aria-labelledby="incidents-resolved-title">
        <h2 id="incidents-resolved-title">{v.t('incidentsResolved', { n: resolved.total })}</h2>
        <Table
          v={v}
          id="incidents-resolved"
          columns={[[v.t('incident')], [v.t('summary')], [v.t('since')], [v.t('resolvedOn')], [v.t('alerts')]]}
          rows={resolved.content.map((i) => [
            <IncidentCell v={v} incident={i} />,
            <span class="reason">{i.summary}</span>,
            shortDate(i.openedAt),
            <>
              <span data-code="RESOLVED" class="badge ok">
                {codeLabel(v.locale, 'incident', 'RESOLVED')}
              </span>{' '}
              {shortDate(i.resolvedAt)}
              <br />
              <span class="muted">{v.t('lastedFor', { duration: elapsed(v, i.openedAt, i.resolvedAt ?? now) })}</span>
            </>,
            <AlertsCell v={v} incident={i} />,
          ])}
        />
        <Pager v={v} page={pageInfo(p, resolved.total)} path={PATH} query={{}} />
      </section>
    </>,
  );
});
