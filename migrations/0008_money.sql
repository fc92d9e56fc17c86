CREATE TABLE `ledger_accounts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key` text NOT NULL,
	`kind` text NOT NULL,
	`owner_type` text,
	`owner_id` integer,
	`currency` text NOT NULL,
	`balance_cents` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	CONSTRAINT "ledger_accounts_wallet_non_negative" CHECK("ledger_accounts"."kind" <> 'WALLET' OR "ledger_accounts"."balance_cents" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_accounts_key_unique` ON `ledger_accounts` (`key`);--> statement-breakpoint
CREATE INDEX `ledger_accounts_owner_idx` ON `ledger_accounts` (`owner_type`,`owner_id`);--> statement-breakpoint
CREATE TABLE `ledger_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key` text NOT NULL,
	`token` text NOT NULL,
	`type` text NOT NULL,
	`reservation_id` integer,
	`withdrawal_id` integer,
	`description` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_entries_key_unique` ON `ledger_entries` (`key`);--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_entries_token_unique` ON `ledger_entries` (`token`);--> statement-breakpoint
CREATE INDEX `ledger_entries_reservation_idx` ON `ledger_entries` (`reservation_id`);--> statement-breakpoint
CREATE TABLE `ledger_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`entry_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	FOREIGN KEY (`entry_id`) REFERENCES `ledger_entries`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_id`) REFERENCES `ledger_accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `ledger_lines_entry_idx` ON `ledger_lines` (`entry_id`);--> statement-breakpoint
CREATE INDEX `ledger_lines_account_idx` ON `ledger_lines` (`account_id`,`amount_cents`);--> statement-breakpoint
CREATE TABLE `payment_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`provider_created` integer NOT NULL,
	`payload` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`processed_at` text
);
--> statement-breakpoint
CREATE TABLE `payment_sessions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`reservation_id` integer NOT NULL,
	`provider` text NOT NULL,
	`session_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`url` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`expires_at` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_sessions_session_unique` ON `payment_sessions` (`session_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `payment_sessions_attempt_unique` ON `payment_sessions` (`reservation_id`,`attempt`);--> statement-breakpoint
CREATE TABLE `payout_accounts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_type` text NOT NULL,
	`owner_id` integer NOT NULL,
	`provider_account_id` text NOT NULL,
	`charges_enabled` integer DEFAULT false NOT NULL,
	`payouts_enabled` integer DEFAULT false NOT NULL,
	`details_submitted` integer DEFAULT false NOT NULL,
	`requirements` text DEFAULT '[]' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payout_accounts_owner_unique` ON `payout_accounts` (`owner_type`,`owner_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `payout_accounts_provider_unique` ON `payout_accounts` (`provider_account_id`);--> statement-breakpoint
CREATE TABLE `transactions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_type` text NOT NULL,
	`owner_id` integer NOT NULL,
	`type` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`ledger_entry_id` integer NOT NULL,
	`reservation_id` integer,
	`withdrawal_id` integer,
	`description` text NOT NULL,
	`receipt_key` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`ledger_entry_id`) REFERENCES `ledger_entries`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `transactions_owner_idx` ON `transactions` (`owner_type`,`owner_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `transactions_reservation_idx` ON `transactions` (`reservation_id`);--> statement-breakpoint
CREATE TABLE `withdrawal_settings` (
	`owner_type` text NOT NULL,
	`owner_id` integer NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`threshold_cents` integer NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `withdrawal_settings_owner_unique` ON `withdrawal_settings` (`owner_type`,`owner_id`);--> statement-breakpoint
CREATE TABLE `withdrawals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_type` text NOT NULL,
	`owner_id` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`automatic` integer DEFAULT false NOT NULL,
	`destination_account_id` text NOT NULL,
	`transfer_id` text,
	`failure_reason` text,
	`token` text NOT NULL,
	`idempotency_key` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`completed_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `withdrawals_token_unique` ON `withdrawals` (`token`);--> statement-breakpoint
CREATE UNIQUE INDEX `withdrawals_owner_idempotency_unique` ON `withdrawals` (`owner_type`,`owner_id`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `withdrawals_owner_idx` ON `withdrawals` (`owner_type`,`owner_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `withdrawals_status_idx` ON `withdrawals` (`status`,`created_at`);