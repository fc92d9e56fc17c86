-- Payouts wait for the dispute window (CONTRACT section 19): one row per delivered share still
-- held. Shares delivered before this migration were already credited to wallets: nothing to
-- backfill. The new ledger account kinds (HELD, RECEIVABLE) need no schema change.
CREATE TABLE `payout_holds` (
	`reservation_id` integer PRIMARY KEY NOT NULL,
	`owner_type` text NOT NULL,
	`owner_id` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`release_after` text NOT NULL,
	`released_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "payout_holds_amount_non_negative" CHECK("payout_holds"."amount_cents" >= 0)
);
--> statement-breakpoint
CREATE INDEX `payout_holds_due_idx` ON `payout_holds` (`released_at`,`release_after`);
