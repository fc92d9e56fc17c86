-- Privacy operations (CONTRACT section 27): each retention run recorded with its counts (shown in
-- the console); the retention rules for offers' recipient details, travel proofs, phone codes and
-- audit-log IP addresses, each with the index that keeps its daily query off a table scan; an
-- export run by an operator for a request received by mail names who ran it.
CREATE TABLE `retention_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`started_at` text NOT NULL,
	`finished_at` text,
	`counts` text,
	`error` text
);
CREATE INDEX `retention_runs_started_idx` ON `retention_runs` (`started_at`);

ALTER TABLE `offers` ADD `details_erased_at` text;
CREATE INDEX `offers_details_due_idx` ON `offers` (`updated_at`) WHERE `details_erased_at` IS NULL AND `status` IN ('ACCEPTED', 'DECLINED', 'EXPIRED', 'WITHDRAWN');

CREATE INDEX `phone_verification_codes_created_idx` ON `phone_verification_codes` (`created_at`);
CREATE INDEX `audit_logs_ip_created_idx` ON `audit_logs` (`created_at`) WHERE `ip` IS NOT NULL;

ALTER TABLE `data_exports` ADD `requested_by` integer REFERENCES `users`(`id`);
