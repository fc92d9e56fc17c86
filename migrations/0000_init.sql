CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`password_hash` text,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`username` text,
	`phone_number` text,
	`birth_date` text,
	`nationality` text,
	`avatar_url` text,
	`roles` text DEFAULT '["ROLE_CLIENT"]' NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`email_verified` integer DEFAULT false NOT NULL,
	`kyc_status` text DEFAULT 'NOT_VERIFIED' NOT NULL,
	`google_subject` text,
	`apple_subject` text,
	`connected_account_id` text,
	`agency_id` integer,
	`deleted_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_google_subject_unique` ON `users` (`google_subject`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_apple_subject_unique` ON `users` (`apple_subject`);--> statement-breakpoint
CREATE INDEX `users_created_at_idx` ON `users` (`created_at`);