CREATE TABLE `agencies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` integer NOT NULL,
	`name` text NOT NULL,
	`legal_name` text,
	`registration_number` text,
	`email` text,
	`phone_number` text,
	`address` text,
	`city` text,
	`country` text,
	`description` text,
	`status` text DEFAULT 'ACTIVE' NOT NULL,
	`suspension_reason` text,
	`suspended_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agencies_owner_unique` ON `agencies` (`owner_id`);--> statement-breakpoint
CREATE INDEX `agencies_status_idx` ON `agencies` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `agency_branches` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`agency_id` integer NOT NULL,
	`name` text NOT NULL,
	`address` text,
	`city` text,
	`country` text,
	`phone_number` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`agency_id`) REFERENCES `agencies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `agency_branches_agency_idx` ON `agency_branches` (`agency_id`,`id`);--> statement-breakpoint
CREATE TABLE `agency_employees` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`agency_id` integer NOT NULL,
	`branch_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`agency_id`) REFERENCES `agencies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`branch_id`) REFERENCES `agency_branches`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `agency_employees_agency_idx` ON `agency_employees` (`agency_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `agency_employees_branch_idx` ON `agency_employees` (`branch_id`);--> statement-breakpoint
CREATE TABLE `files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` integer NOT NULL,
	`purpose` text NOT NULL,
	`content_type` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`storage_key` text NOT NULL,
	`original_name` text,
	`reservation_id` integer,
	`agency_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`agency_id`) REFERENCES `agencies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `files_storage_key_unique` ON `files` (`storage_key`);--> statement-breakpoint
CREATE INDEX `files_owner_idx` ON `files` (`owner_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `files_reservation_idx` ON `files` (`reservation_id`);--> statement-breakpoint
CREATE INDEX `files_agency_idx` ON `files` (`agency_id`,`purpose`);--> statement-breakpoint
CREATE TABLE `kyc_provider_events` (
	`event_id` text PRIMARY KEY NOT NULL,
	`kyc_record_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `kyc_records` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`document_type` text,
	`rejection_reason` text,
	`provider_status` text,
	`provider_event_at` text,
	`external_user_id` text NOT NULL,
	`session_id` text NOT NULL,
	`kyc_session_url` text NOT NULL,
	`kyc_session_token` text,
	`token_expiry` text,
	`submitted_at` text NOT NULL,
	`reviewed_at` text,
	`reviewed_by` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `kyc_records_session_unique` ON `kyc_records` (`session_id`);--> statement-breakpoint
CREATE INDEX `kyc_records_user_idx` ON `kyc_records` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `kyc_records_status_idx` ON `kyc_records` (`status`,`submitted_at`);