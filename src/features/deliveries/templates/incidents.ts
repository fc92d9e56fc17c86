// The watchdog's alerts (CONTRACT section 27): one message when an incident opens and one when it
// is resolved, by e-mail, SMS and the Slack-compatible webhook. The same line is the SMS, the
// webhook's text and the e-mail's first paragraph, so every channel says the same thing.
import type { Locale } from '../../../db/schema';
import type { EmailBlocks } from './layout';

type Payload = Record<string, unknown>;
type Link = (path: string) => string;

export const INCIDENT_TEMPLATES = ['INCIDENT_OPENED', 'INCIDENT_RESOLVED'] as const;
export type IncidentTemplate = (typeof INCIDENT_TEMPLATES)[number];
export const isIncidentTemplate = (template: string): template is IncidentTemplate => (INCIDENT_TEMPLATES as readonly string[]).includes(template);

const str = (p: Payload, key: string) => (typeof p[key] === 'string' ? (p[key] as string) : p[key] == null ? '' : String(p[key]));
/** 2026-12-07T04:40:12.345Z -> 2026-12-07 04:40 UTC */
const minute = (iso: string) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '');

/** The alert in one line: severity, incident number, what is wrong (or that it is over), since when. */
export function incidentLine(template: IncidentTemplate, locale: Locale, p: Payload): string {
  const id = str(p, 'incidentId');
  const summary = str(p, 'summary');
  const fr = locale === 'fr';
  if (template === 'INCIDENT_OPENED') {
    return fr
      ? `[${str(p, 'severity')}] Incident n° ${id} ouvert : ${summary} (depuis ${minute(str(p, 'openedAt'))}).`
      : `[${str(p, 'severity')}] Incident #${id} opened: ${summary} (since ${minute(str(p, 'openedAt'))}).`;
  }
  return fr
    ? `Incident n° ${id} résolu : ${str(p, 'title')} (ouvert ${minute(str(p, 'openedAt'))}, résolu ${minute(str(p, 'resolvedAt'))}).`
    : `Incident #${id} resolved: ${str(p, 'title')} (opened ${minute(str(p, 'openedAt'))}, resolved ${minute(str(p, 'resolvedAt'))}).`;
}

export function incidentEmail(template: IncidentTemplate, locale: Locale, p: Payload, link: Link): EmailBlocks {
  const fr = locale === 'fr';
  const opened = template === 'INCIDENT_OPENED';
  const title = str(p, 'title');
  return {
    subject: fr
      ? `${opened ? `[${str(p, 'severity')}] Incident` : 'Résolu'} n° ${str(p, 'incidentId')} : ${title}`
      : `${opened ? `[${str(p, 'severity')}] Incident` : 'Resolved'} #${str(p, 'incidentId')}: ${title}`,
    greeting: fr ? 'Bonjour,' : 'Hello,',
    paragraphs: [
      incidentLine(template, locale, p),
      opened
        ? fr
          ? 'Aucune autre alerte ne sera envoyée pour cet incident tant qu’il reste ouvert ; sa résolution sera annoncée. Premières vérifications : docs/OPERATIONS.md, « Alertes ».'
          : 'No further alert is sent for this incident while it stays open; its resolution will be announced. First checks: docs/OPERATIONS.md, "Alerts".'
        : fr
          ? 'La règle n’est plus enfreinte.'
          : 'The rule is no longer breached.',
    ],
    action: { label: fr ? 'Voir les incidents' : 'See the incidents', url: link('/console/incidents') },
    footer: [fr ? 'Message du watchdog de Parcel Marketplace.' : 'Sent by the Parcel Marketplace watchdog.'],
  };
}
