-- Mobile money (issue 29, CONTRACT section 20). A checkout session says how it is paid: CARD
-- (Stripe) or MOBILE_MONEY (Wave); a reservation's refunds go to the provider of the session it was
-- paid with. Wave events share payment_events (their ids stored as `wave:<id>`), applied once.
ALTER TABLE `payment_sessions` ADD `method` text DEFAULT 'CARD' NOT NULL;
--> statement-breakpoint
-- Mobile wallets a carrier (or an agency) is paid out to, beside the Stripe connected account
-- (payout_accounts). One default per owner and currency.
CREATE TABLE `mobile_payout_accounts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_type` text NOT NULL,
	`owner_id` integer NOT NULL,
	`type` text DEFAULT 'MOBILE_MONEY' NOT NULL,
	`provider` text NOT NULL,
	`currency` text NOT NULL,
	`phone` text NOT NULL,
	`name` text NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mobile_payout_accounts_owner_idx` ON `mobile_payout_accounts` (`owner_type`,`owner_id`);
--> statement-breakpoint
CREATE UNIQUE INDEX `mobile_payout_accounts_default_unique` ON `mobile_payout_accounts` (`owner_type`,`owner_id`,`currency`) WHERE `is_default` = 1;
--> statement-breakpoint
CREATE UNIQUE INDEX `mobile_payout_accounts_phone_unique` ON `mobile_payout_accounts` (`owner_type`,`owner_id`,`provider`,`phone`);
