// The mailer port and the development mailer. The development mailer "sends" by writing the
// message to the mail_outbox table (developers and tests read links there) and one log line
// that names the message but never carries its body: the body holds single-use tokens.
import type { Db } from '../../db/client';
import { mailOutbox } from '../../db/schema';

export interface MailMessage {
  to: string;
  /** Machine name of the message, e.g. EMAIL_VERIFICATION, PASSWORD_RESET. */
  template: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export class OutboxMailer implements Mailer {
  constructor(private readonly db: Db) {}

  async send(message: MailMessage): Promise<void> {
    const [row] = await this.db
      .insert(mailOutbox)
      .values({ recipient: message.to, template: message.template, subject: message.subject, body: message.text })
      .returning({ id: mailOutbox.id });
    console.log(JSON.stringify({ level: 'info', event: 'mail.outbox', outboxId: row.id, template: message.template }));
  }
}

/** The mailer in use. Only the outbox adapter exists; a real provider adapter plugs in here. */
export const createMailer = (db: Db): Mailer => new OutboxMailer(db);
