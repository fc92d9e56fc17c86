-- Money reconciliation (CONTRACT 27): one report per UTC day and provider, re-run in place, and its
-- differences; what an operator's retry of a failed refund or payout needs.
CREATE TABLE `reconciliation_reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`day` text NOT NULL,
	`provider` text NOT NULL,
	`status` text NOT NULL CHECK (`status` IN ('MATCHED', 'DIFFERENCES', 'FAILED')),
	`provider_records` integer DEFAULT 0 NOT NULL,
	`our_records` integer DEFAULT 0 NOT NULL,
	`differences` integer DEFAULT 0 NOT NULL,
	`note` text,
	`error` text,
	`runs` integer DEFAULT 1 NOT NULL,
	`run_at` text NOT NULL
);
CREATE UNIQUE INDEX `reconciliation_reports_day_provider_unique` ON `reconciliation_reports` (`day`, `provider`);
CREATE TABLE `reconciliation_differences` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`report_id` integer NOT NULL,
	`kind` text NOT NULL CHECK (`kind` IN ('MISSING_IN_BOOKS', 'MISSING_AT_PROVIDER', 'AMOUNT_MISMATCH', 'STATUS_MISMATCH')),
	`object` text NOT NULL,
	`provider_ref` text,
	`reservation_id` integer,
	`withdrawal_id` integer,
	`currency` text NOT NULL,
	`provider_amount_minor` integer,
	`our_amount_minor` integer,
	`provider_status` text,
	`our_status` text,
	FOREIGN KEY (`report_id`) REFERENCES `reconciliation_reports`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE INDEX `reconciliation_differences_report_idx` ON `reconciliation_differences` (`report_id`);
-- A card or mobile-money refund the provider refused: the refusal, when, and the attempt an operator's retry starts.
ALTER TABLE `reservations` ADD `refund_attempt` integer DEFAULT 0 NOT NULL;
ALTER TABLE `reservations` ADD `settlement_error` text;
ALTER TABLE `reservations` ADD `refunded_at` text;
-- A failed withdrawal retried: the new withdrawal names it, once (the unique index).
ALTER TABLE `withdrawals` ADD `retry_of` integer;
CREATE UNIQUE INDEX `withdrawals_retry_of_unique` ON `withdrawals` (`retry_of`) WHERE `retry_of` IS NOT NULL;
