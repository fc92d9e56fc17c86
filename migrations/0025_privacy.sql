-- Personal data (CONTRACT 24): the exports a user asked for (the archive is an R2 object, served
-- to its owner for 7 days), and what the retention job already erased on each finished reservation
-- (its tracking points and message bodies live in Durable Objects: the job marks what it did here).
CREATE TABLE `data_exports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL REFERENCES `users`(`id`),
	`status` text DEFAULT 'PENDING' NOT NULL CHECK (`status` IN ('PENDING', 'READY', 'FAILED')),
	`storage_key` text,
	`size_bytes` integer,
	`error` text,
	`ready_at` text,
	`expires_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `data_exports_user_idx` ON `data_exports` (`user_id`, `created_at`);
--> statement-breakpoint
-- One export in progress per user: the database refuses the second under a race too.
CREATE UNIQUE INDEX `data_exports_one_pending` ON `data_exports` (`user_id`) WHERE `status` = 'PENDING';
--> statement-breakpoint
CREATE INDEX `data_exports_status_idx` ON `data_exports` (`status`, `created_at`);
--> statement-breakpoint
CREATE TABLE `reservation_erasures` (
	`reservation_id` integer PRIMARY KEY NOT NULL REFERENCES `reservations`(`id`) ON DELETE CASCADE,
	`tracking_at` text,
	`personal_at` text
);
