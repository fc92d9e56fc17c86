CREATE TABLE `agency_documents` (
	`file_id` integer PRIMARY KEY NOT NULL,
	`document_type` text NOT NULL,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`rejection_reason` text,
	`reviewed_at` text,
	`reviewed_by` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reviewed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `agency_documents_status_idx` ON `agency_documents` (`status`,`created_at`);
--> statement-breakpoint
-- Documents uploaded before types and review existed (hand-written: drizzle-kit does not generate
-- data steps): their type is unknown (OTHER) and nobody has reviewed them (PENDING).
INSERT INTO `agency_documents` (`file_id`, `document_type`, `status`, `created_at`, `updated_at`) SELECT `id`, 'OTHER', 'PENDING', `created_at`, `created_at` FROM `files` WHERE `purpose` = 'AGENCY_DOCUMENT' AND `agency_id` IS NOT NULL AND NOT EXISTS (SELECT 1 FROM `agency_documents` WHERE `file_id` = `files`.`id`);
