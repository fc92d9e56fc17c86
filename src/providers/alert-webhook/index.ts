// The operators' alert webhook (ALERT_WEBHOOK_URL): a Slack-compatible incoming webhook, one JSON
// POST `{"text": ...}` per alert (Slack, Mattermost, Rocket.Chat and Google Chat's Slack mode take
// it as is). Production posts it; elsewhere the sandbox records it in the development outbox.
import { appConfig } from '../../config';
import { database, type Db } from '../../db/client';
import type { Locale } from '../../db/schema';
import type { SendOutcome } from '../push/push-provider';
import { recordedAsSent } from '../sandbox-outbox';

export interface AlertWebhookMessage {
  deliveryId: string;
  url: string;
  text: string;
  template: string;
  locale: Locale;
}

export interface AlertWebhookProvider {
  send(message: AlertWebhookMessage): Promise<SendOutcome>;
}

const TIMEOUT_MS = 10_000;

/** Slack answers 200 "ok"; 4xx but 429 is a refusal no retry fixes (a revoked hook: 403/404 "no_service"). */
export const slackWebhook: AlertWebhookProvider = {
  async send({ url, text }) {
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ text }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      return { status: 'RETRY', reason: `alert webhook unreachable: ${err instanceof Error ? err.message : String(err)}` };
    }
    const body = (await res.text()).slice(0, 200);
    if (res.ok) return { status: 'SENT', providerMessageId: `webhook-${res.status}` };
    const reason = `alert webhook answered ${res.status} ${body}`;
    return res.status === 429 || res.status >= 500 ? { status: 'RETRY', reason } : { status: 'REJECTED', reason };
  },
};

const sandboxWebhook = (db: Db): AlertWebhookProvider => ({
  send: ({ deliveryId, url, text, template, locale }) =>
    recordedAsSent(db, { deliveryId: Number(deliveryId), channel: 'WEBHOOK', to: url, subject: null, text, template, locale, links: [] }),
});

export function alertWebhookProvider(env: Env): AlertWebhookProvider {
  return appConfig(env).alerts.webhook?.mode === 'LIVE' ? slackWebhook : sandboxWebhook(database(env.DB));
}
