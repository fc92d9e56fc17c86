-- Protecting what is sent (CONTRACT 21), the parts of issue 30 without money: phone verification
-- by SMS code, proof of travel, prohibited and restricted items per corridor.
ALTER TABLE `users` ADD `phone_verified` integer DEFAULT false NOT NULL;
--> statement-breakpoint
-- One row per code sent: only the salted SHA-256 of the code is kept. A new code supersedes the
-- previous one; the rows of the last hour count against the 3 codes an hour.
CREATE TABLE `phone_verification_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`phone` text NOT NULL,
	`code_hash` text NOT NULL,
	`salt` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` text NOT NULL,
	`superseded_at` text,
	`verified_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `phone_verification_codes_user_idx` ON `phone_verification_codes` (`user_id`,`created_at`);
