// Twilio's Messages API (POST /2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded, basic
// auth). Twilio takes no idempotency key on message creation: the delivery consumer claims a
// delivery before calling, so a SENT delivery is never sent again.
import { SEND_TIMEOUT_MS, type SendOutcome } from '../push/push-provider';
import type { SmsMessage, SmsProvider } from './sms-provider';

export interface TwilioSettings {
  accountSid: string;
  /** The account's auth token, or an API key secret with `apiKeySid`. */
  authToken: string;
  apiKeySid?: string;
  /** A sender number (E.164) or a Messaging Service SID (MG...). */
  from: string;
}

interface TwilioError {
  code?: number;
  message?: string;
  more_info?: string;
}

/** What a Twilio error answer means for the delivery (https://www.twilio.com/docs/api/errors). */
export function twilioOutcome(httpStatus: number, body: TwilioError): SendOutcome {
  const reason = `Twilio ${body.code ?? `HTTP ${httpStatus}`}: ${body.message ?? 'no message'}`;
  if (httpStatus === 429 || httpStatus >= 500) return { status: 'RETRY', reason };
  return { status: 'REJECTED', reason };
}

export class TwilioSmsProvider implements SmsProvider {
  constructor(private readonly settings: TwilioSettings) {}

  async send(message: SmsMessage): Promise<SendOutcome> {
    const { accountSid, authToken, apiKeySid, from } = this.settings;
    const form = new URLSearchParams({ To: message.to, Body: message.body });
    form.set(from.startsWith('MG') ? 'MessagingServiceSid' : 'From', from);
    let res: Response;
    try {
      res = await fetch(`https://api.twilio.com/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${btoa(`${apiKeySid ?? accountSid}:${authToken}`)}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        body: form,
      });
    } catch (err) {
      return { status: 'RETRY', reason: `Twilio unreachable: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (res.ok) return { status: 'SENT', providerMessageId: ((await res.json()) as { sid: string }).sid };
    return twilioOutcome(res.status, (await res.json().catch(() => ({}))) as TwilioError);
  }
}
