-- The watchdog (CONTRACT section 27, "alerts reach a person"): incidents it opens and resolves,
-- each cron job's heartbeat, the webhooks refused for their signature (the 5-minute rule counts
-- them here, not in the per-isolate metrics), and the monitoring tokens an outside monitor reads
-- the metrics and incidents with.
CREATE TABLE `incidents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`rule` text NOT NULL,
	`subject` text DEFAULT '' NOT NULL,
	`severity` text NOT NULL,
	`status` text DEFAULT 'OPEN' NOT NULL,
	`summary` text NOT NULL,
	`value` real,
	`threshold` real,
	`opened_at` text NOT NULL,
	`last_seen_at` text NOT NULL,
	`resolved_at` text,
	CHECK (`status` IN ('OPEN', 'RESOLVED'))
);
-- One open incident per rule and subject: a second run (or two at once) cannot open it again.
CREATE UNIQUE INDEX `incidents_open_unique` ON `incidents` (`rule`, `subject`) WHERE `status` = 'OPEN';
CREATE INDEX `incidents_opened_idx` ON `incidents` (`opened_at`);
CREATE TABLE `cron_heartbeats` (
	`job` text PRIMARY KEY NOT NULL,
	`last_run_at` text NOT NULL,
	`last_ok_at` text,
	`last_error` text
);
CREATE TABLE `webhook_refusals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`provider` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
CREATE INDEX `webhook_refusals_created_idx` ON `webhook_refusals` (`created_at`);
CREATE TABLE `monitoring_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_by` integer NOT NULL REFERENCES `users`(`id`),
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_used_at` text,
	`revoked_at` text
);
CREATE UNIQUE INDEX `monitoring_tokens_hash_unique` ON `monitoring_tokens` (`token_hash`);
-- The watchdog's pending-too-long rules read reservations by payment status every five minutes.
CREATE INDEX `reservations_payment_status_idx` ON `reservations` (`payment_status`, `updated_at`);
