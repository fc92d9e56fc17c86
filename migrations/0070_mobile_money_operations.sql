-- The mobile-money port (issue 46, CONTRACT section 29). Every provider operation (a pay-in, a
-- refund, a payout) is a row here BEFORE it is sent: its id is the UUID the provider gets on every
-- retry, its subject says what it is for (one operation per subject), its status is NEW (not sent
-- yet), PENDING, UNKNOWN (a timeout, a 5xx: resolved by a status check, never by a new id),
-- COMPLETED or FAILED. Payout accounts name their operator (MTN_MOMO_CMR, ORANGE_CIV, WAVE, ...).
CREATE TABLE `mobile_money_operations` (
	`id` text PRIMARY KEY NOT NULL,
	`subject` text NOT NULL,
	`kind` text NOT NULL CHECK (`kind` IN ('PAYIN', 'PAYOUT', 'REFUND')),
	`rail` text NOT NULL,
	`operator` text,
	`amount_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`phone` text,
	`reservation_id` integer REFERENCES `reservations`(`id`),
	`withdrawal_id` integer REFERENCES `withdrawals`(`id`),
	`status` text DEFAULT 'NEW' NOT NULL CHECK (`status` IN ('NEW', 'PENDING', 'UNKNOWN', 'COMPLETED', 'FAILED')),
	`ref` text,
	`provider_transaction_id` text,
	`failure_code` text,
	`failure_message` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mobile_money_operations_subject_unique` ON `mobile_money_operations` (`subject`);
--> statement-breakpoint
CREATE INDEX `mobile_money_operations_ref_idx` ON `mobile_money_operations` (`ref`);
--> statement-breakpoint
CREATE INDEX `mobile_money_operations_open_idx` ON `mobile_money_operations` (`kind`, `updated_at`) WHERE `status` IN ('NEW', 'PENDING', 'UNKNOWN');
