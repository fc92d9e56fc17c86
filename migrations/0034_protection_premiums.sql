-- Unearned protection premiums (issue 30, docs/decisions-protection.md). A premium is paid into
-- the new account kind PROTECTION_PREMIUMS (per currency) and reaches PROTECTION_RESERVE only once
-- it can no longer go back, so a protection payout never spends a premium that a full refund may
-- still take back. No column changes (account kinds and entry types are not constrained in SQL).
--
-- Data: the premiums of reservations paid before this migration whose premium may still go back
-- (paid, not refunded, no dispute resolved, and either still in escrow or delivered with the
-- carrier's share still held in the dispute window) move from the reserve to the unearned
-- premiums, one balanced entry per reservation (`premium-unearned:<id>`, a line on each account,
-- the reservation's id on the entry: the guard of src/features/money/ledger/premiums.ts reads it).
-- Where past payouts had already spent such premiums, the reserve would fall below zero: the
-- platform refills it from PROTECTION_FUNDING (`reserve-refill-0034:<currency>`), as it funds any
-- payout the reserve cannot cover. Done here, as postings, rather than as a documented one-off so
-- that every database (production, staging, restored backups) gets the same balanced entries.
CREATE TABLE `_open_premiums_0034` (
	`reservation_id` integer PRIMARY KEY NOT NULL,
	`reservation_number` text NOT NULL,
	`currency` text NOT NULL,
	`premium_cents` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `_open_premiums_0034` (`reservation_id`, `reservation_number`, `currency`, `premium_cents`)
SELECT r.`id`, r.`reservation_number`, r.`currency`, r.`protection_premium_cents`
  FROM `reservations` r
 WHERE r.`protection_premium_cents` > 0
   AND EXISTS (SELECT 1 FROM `ledger_entries` e WHERE e.`key` = 'escrow-in:' || r.`id`)
   AND NOT EXISTS (SELECT 1 FROM `ledger_entries` e WHERE e.`reservation_id` = r.`id` AND e.`type` IN ('ESCROW_REFUNDED', 'DISPUTE_SETTLED', 'PROTECTION_PAYOUT'))
   AND NOT EXISTS (SELECT 1 FROM `disputes` d WHERE d.`reservation_id` = r.`id` AND d.`status` = 'RESOLVED')
   AND (
     NOT EXISTS (SELECT 1 FROM `ledger_entries` e WHERE e.`key` = 'escrow-out:' || r.`id`)
     OR EXISTS (SELECT 1 FROM `payout_holds` h WHERE h.`reservation_id` = r.`id` AND h.`released_at` IS NULL)
   );
--> statement-breakpoint
INSERT INTO `ledger_accounts` (`key`, `kind`, `currency`)
SELECT DISTINCT k.`kind` || ':' || o.`currency`, k.`kind`, o.`currency`
  FROM `_open_premiums_0034` o, (SELECT 'PROTECTION_PREMIUMS' AS `kind` UNION ALL SELECT 'PROTECTION_RESERVE' UNION ALL SELECT 'PROTECTION_FUNDING') k
 WHERE true
ON CONFLICT (`key`) DO NOTHING;
--> statement-breakpoint
INSERT INTO `ledger_entries` (`key`, `token`, `type`, `reservation_id`, `description`)
SELECT 'premium-unearned:' || o.`reservation_id`, 'migration-0034:' || o.`reservation_id`, 'PROTECTION_PREMIUM_MOVED', o.`reservation_id`,
       'Reservation ' || o.`reservation_number` || ': protection premium held as unearned until it can no longer go back'
  FROM `_open_premiums_0034` o;
--> statement-breakpoint
INSERT INTO `ledger_lines` (`entry_id`, `account_id`, `amount_cents`)
SELECT e.`id`, a.`id`, CASE a.`kind` WHEN 'PROTECTION_PREMIUMS' THEN o.`premium_cents` ELSE -o.`premium_cents` END
  FROM `_open_premiums_0034` o
  JOIN `ledger_entries` e ON e.`key` = 'premium-unearned:' || o.`reservation_id`
  JOIN `ledger_accounts` a ON a.`key` IN ('PROTECTION_PREMIUMS:' || o.`currency`, 'PROTECTION_RESERVE:' || o.`currency`);
--> statement-breakpoint
UPDATE `ledger_accounts`
   SET `balance_cents` = `balance_cents` + (SELECT SUM(o.`premium_cents`) FROM `_open_premiums_0034` o WHERE o.`currency` = `ledger_accounts`.`currency`)
                                        * (CASE `kind` WHEN 'PROTECTION_PREMIUMS' THEN 1 ELSE -1 END)
 WHERE `kind` IN ('PROTECTION_PREMIUMS', 'PROTECTION_RESERVE') AND `currency` IN (SELECT `currency` FROM `_open_premiums_0034`);
--> statement-breakpoint
CREATE TABLE `_reserve_refill_0034` (
	`currency` text PRIMARY KEY NOT NULL,
	`cents` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `_reserve_refill_0034` (`currency`, `cents`)
SELECT `currency`, -`balance_cents` FROM `ledger_accounts` WHERE `kind` = 'PROTECTION_RESERVE' AND `balance_cents` < 0;
--> statement-breakpoint
INSERT INTO `ledger_entries` (`key`, `token`, `type`, `description`)
SELECT 'reserve-refill-0034:' || f.`currency`, 'migration-0034-refill:' || f.`currency`, 'PROTECTION_PREMIUM_MOVED',
       'Protection reserve refilled by the platform: payouts had spent premiums that could still go back'
  FROM `_reserve_refill_0034` f;
--> statement-breakpoint
INSERT INTO `ledger_lines` (`entry_id`, `account_id`, `amount_cents`)
SELECT e.`id`, a.`id`, CASE a.`kind` WHEN 'PROTECTION_RESERVE' THEN f.`cents` ELSE -f.`cents` END
  FROM `_reserve_refill_0034` f
  JOIN `ledger_entries` e ON e.`key` = 'reserve-refill-0034:' || f.`currency`
  JOIN `ledger_accounts` a ON a.`key` IN ('PROTECTION_RESERVE:' || f.`currency`, 'PROTECTION_FUNDING:' || f.`currency`);
--> statement-breakpoint
UPDATE `ledger_accounts`
   SET `balance_cents` = `balance_cents` + (SELECT f.`cents` FROM `_reserve_refill_0034` f WHERE f.`currency` = `ledger_accounts`.`currency`)
                                        * (CASE `kind` WHEN 'PROTECTION_RESERVE' THEN 1 ELSE -1 END)
 WHERE `kind` IN ('PROTECTION_RESERVE', 'PROTECTION_FUNDING') AND `currency` IN (SELECT `currency` FROM `_reserve_refill_0034`);
--> statement-breakpoint
DROP TABLE `_reserve_refill_0034`;
--> statement-breakpoint
DROP TABLE `_open_premiums_0034`;
--> statement-breakpoint
-- Defence in depth, like the CHECK on wallets: the database itself refuses a batch that would
-- drive the reserve or the unearned premiums below zero (the services guard against it first).
CREATE TRIGGER `ledger_protection_non_negative` BEFORE UPDATE OF `balance_cents` ON `ledger_accounts`
WHEN NEW.`kind` IN ('PROTECTION_RESERVE', 'PROTECTION_PREMIUMS') AND NEW.`balance_cents` < 0
BEGIN
	SELECT RAISE(ABORT, 'CHECK constraint failed: ledger_protection_non_negative');
END;
