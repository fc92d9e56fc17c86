// The push sandbox: "sends" by recording the rendered notification in D1 (outbox_messages), where
// the development outbox shows it with channel PUSH, addressed to the device's token.
import type { Db } from '../../db/client';
import { recordedAsSent } from '../sandbox-outbox';
import type { PushMessage, PushProvider, SendOutcome } from './push-provider';

export class SandboxPushProvider implements PushProvider {
  constructor(private readonly db: Db) {}

  send = ({ deliveryId, token, title, body, template, locale, links }: PushMessage): Promise<SendOutcome> =>
    recordedAsSent(this.db, { deliveryId: Number(deliveryId), channel: 'PUSH', to: token, subject: title, text: body, template, locale, links });
}
