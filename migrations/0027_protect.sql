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
--> statement-breakpoint
-- Prohibited and restricted items added by admins to the maintained list (features/reference/
-- prohibited-items.data.ts); a null country is every country.
CREATE TABLE `prohibited_item_rules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`level` text NOT NULL,
	`category_code` text,
	`from_country` text,
	`to_country` text,
	`name_en` text NOT NULL,
	`name_fr` text NOT NULL,
	`reason_en` text NOT NULL,
	`reason_fr` text NOT NULL,
	`created_by` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `prohibited_item_rules_code_unique` ON `prohibited_item_rules` (`code`);
--> statement-breakpoint
-- What the sender declared at booking (noProhibitedItems, acknowledgedRestrictions), shown to the carrier.
ALTER TABLE `reservations` ADD `declarations` text;
--> statement-breakpoint
-- Proof of travel: a ticket or boarding pass attached to a trip, reviewed by operators.
CREATE TABLE `travel_proofs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`announcement_id` integer NOT NULL,
	`file_id` integer NOT NULL,
	`submitted_by` integer NOT NULL,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`rejection_reason` text,
	`reviewed_by` integer,
	`reviewed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`announcement_id`) REFERENCES `announcements`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`submitted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `travel_proofs_status_idx` ON `travel_proofs` (`status`,`created_at`);
--> statement-breakpoint
CREATE INDEX `travel_proofs_announcement_idx` ON `travel_proofs` (`announcement_id`);
--> statement-breakpoint
ALTER TABLE `announcements` ADD `travel_verified` integer DEFAULT false NOT NULL;
