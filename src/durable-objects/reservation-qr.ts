// One Durable Object per reservation (idFromName(reservationId)) owning its QR state: the current
// signed payload per purpose, which payloads were used, and the wrong-code counter. Every decision
// runs as synchronous SQLite work inside the object, so two simultaneous scans or code entries are
// serialised and exactly one wins.
import { DurableObject } from 'cloudflare:workers';
import { newNonce, signQrPayload, type QrPurpose } from '../lib/qr-payload';
import { timingSafeEqual } from '../lib/timing-safe';
import { appConfig } from '../config';

/** CONTRACT section 7: after 5 wrong codes, code entry is locked for 15 minutes. */
export const MAX_CODE_FAILURES = 5;
export const CODE_LOCK_MS = 15 * 60 * 1000;
/** Used and replaced payloads are remembered this long (they expire after 60 s anyway). */
const PAYLOAD_RETENTION_MS = 24 * 60 * 60 * 1000;

export interface IssuedQr {
  payload: string;
  expiresAt: string;
}

/** What a payload is about: the reservation, and the carrier who alone may scan it. */
export interface QrSubject {
  reservationId: number;
  carrierId: number;
}

export type ConsumeResult = 'OK' | 'USED' | 'REPLACED' | 'EXPIRED' | 'UNKNOWN';

export type CodeCheck =
  | { result: 'OK' }
  | { result: 'WRONG'; remainingAttempts: number; retryAfterSeconds?: number }
  | { result: 'LOCKED'; retryAfterSeconds: number };

interface PayloadRow extends Record<string, SqlStorageValue> {
  nonce: string;
  purpose: string;
  payload: string;
  expires_at: number;
  state: string;
}

export class ReservationQr extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS qr_payloads (
      nonce TEXT PRIMARY KEY,
      purpose TEXT NOT NULL,
      payload TEXT NOT NULL,
      expires_at INTEGER NOT NULL,
      state TEXT NOT NULL
    )`);
    this.sql.exec('CREATE INDEX IF NOT EXISTS qr_payloads_purpose ON qr_payloads (purpose, state)');
    this.sql.exec(`CREATE TABLE IF NOT EXISTS code_attempts (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      failures INTEGER NOT NULL,
      locked_until INTEGER NOT NULL
    )`);
  }

  /**
   * The payload to show for `purpose`. With `reuseIfValidForMs`, the current one is returned while it
   * stays valid that long (several viewers of the recipient page do not replace each other's code);
   * otherwise a new payload is issued and the previous one stops being accepted.
   */
  async issue(subject: QrSubject, purpose: QrPurpose, reuseIfValidForMs = 0): Promise<IssuedQr> {
    const now = Date.now();
    if (reuseIfValidForMs > 0) {
      const current = this.active(purpose);
      if (current && current.expires_at - now >= reuseIfValidForMs) {
        return { payload: current.payload, expiresAt: new Date(current.expires_at).toISOString() };
      }
    }
    const nonce = newNonce();
    const exp = now + appConfig(this.env).qrTtlMs;
    // Signing awaits WebCrypto, so it happens before the synchronous state change below.
    const payload = await signQrPayload(this.env.QR_SIGNING_SECRET, { rid: subject.reservationId, car: subject.carrierId, pur: purpose, non: nonce, exp });
    this.sql.exec(`UPDATE qr_payloads SET state = 'REPLACED' WHERE purpose = ? AND state = 'ACTIVE'`, purpose);
    this.sql.exec(
      `INSERT INTO qr_payloads (nonce, purpose, payload, expires_at, state) VALUES (?, ?, ?, ?, 'ACTIVE')`,
      nonce,
      purpose,
      payload,
      exp,
    );
    this.sql.exec('DELETE FROM qr_payloads WHERE expires_at < ?', now - PAYLOAD_RETENTION_MS);
    return { payload, expiresAt: new Date(exp).toISOString() };
  }

  /** Marks a (signature-checked) payload used. Synchronous: of two simultaneous scans one gets OK. */
  consume(nonce: string, purpose: QrPurpose): ConsumeResult {
    const now = Date.now();
    // The usual scan, one statement: an active, unexpired payload of this purpose becomes used.
    const used = this.sql.exec(
      `UPDATE qr_payloads SET state = 'USED' WHERE nonce = ? AND purpose = ? AND state = 'ACTIVE' AND expires_at > ?`,
      nonce,
      purpose,
      now,
    ).rowsWritten;
    if (used > 0) return 'OK';
    // Refused: say why from what is stored.
    const [row] = this.sql.exec<PayloadRow>('SELECT * FROM qr_payloads WHERE nonce = ?', nonce).toArray();
    if (!row || row.purpose !== purpose) return 'UNKNOWN';
    if (row.state === 'USED') return 'USED';
    if (row.state === 'REPLACED') return 'REPLACED';
    return 'EXPIRED';
  }

  /**
   * Compares a manually typed code with the expected one, counting failures. Deposit and delivery
   * codes share one counter: it is the reservation's code entry that gets locked.
   */
  checkCode(submitted: string, expected: string): CodeCheck {
    const now = Date.now();
    let { failures, locked_until: lockedUntil } = this.attempts();
    if (lockedUntil > now) return { result: 'LOCKED', retryAfterSeconds: Math.ceil((lockedUntil - now) / 1000) };
    if (lockedUntil > 0) {
      // The lock has run out: a fresh series of attempts starts.
      failures = 0;
      lockedUntil = 0;
    }
    if (timingSafeEqual(submitted, expected)) {
      this.saveAttempts(0, 0);
      return { result: 'OK' };
    }
    failures += 1;
    if (failures >= MAX_CODE_FAILURES) {
      this.saveAttempts(failures, now + CODE_LOCK_MS);
      return { result: 'WRONG', remainingAttempts: 0, retryAfterSeconds: CODE_LOCK_MS / 1000 };
    }
    this.saveAttempts(failures, 0);
    return { result: 'WRONG', remainingAttempts: MAX_CODE_FAILURES - failures };
  }

  /** Current counter state (tests and supervision). */
  codeAttempts(): { failures: number; lockedUntil: number } {
    const { failures, locked_until } = this.attempts();
    return { failures, lockedUntil: locked_until };
  }

  private active(purpose: QrPurpose): PayloadRow | undefined {
    return this.sql
      .exec<PayloadRow>(`SELECT * FROM qr_payloads WHERE purpose = ? AND state = 'ACTIVE' ORDER BY expires_at DESC LIMIT 1`, purpose)
      .toArray()[0];
  }

  private attempts(): { failures: number; locked_until: number } {
    const [row] = this.sql
      .exec<{ failures: number; locked_until: number }>('SELECT failures, locked_until FROM code_attempts WHERE id = 1')
      .toArray();
    return row ?? { failures: 0, locked_until: 0 };
  }

  private saveAttempts(failures: number, lockedUntil: number) {
    this.sql.exec(
      `INSERT INTO code_attempts (id, failures, locked_until) VALUES (1, ?, ?)
       ON CONFLICT (id) DO UPDATE SET failures = excluded.failures, locked_until = excluded.locked_until`,
      failures,
      lockedUntil,
    );
  }
}

