-- CONTRACT 25: an invitation to an address without an account waits for it (14 days), so its
-- user_id is null until someone signs up with that address. SQLite cannot drop NOT NULL in place:
-- the table is rebuilt with the same rows, columns and indexes.
CREATE TABLE `agency_invitations_new` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`agency_id` integer NOT NULL,
	`branch_id` integer NOT NULL,
	`user_id` integer,
	`email` text NOT NULL,
	`invited_by` integer NOT NULL,
	`status` text DEFAULT 'INVITED' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`expires_at` text NOT NULL,
	`responded_at` text,
	FOREIGN KEY (`agency_id`) REFERENCES `agencies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`branch_id`) REFERENCES `agency_branches`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`invited_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `agency_invitations_new` (`id`, `agency_id`, `branch_id`, `user_id`, `email`, `invited_by`, `status`, `created_at`, `expires_at`, `responded_at`)
  SELECT `id`, `agency_id`, `branch_id`, `user_id`, lower(`email`), `invited_by`, `status`, `created_at`, `expires_at`, `responded_at` FROM `agency_invitations`;
--> statement-breakpoint
DROP TABLE `agency_invitations`;
--> statement-breakpoint
ALTER TABLE `agency_invitations_new` RENAME TO `agency_invitations`;
--> statement-breakpoint
CREATE UNIQUE INDEX `agency_invitations_pending_unique` ON `agency_invitations` (`agency_id`,`user_id`) WHERE status = 'INVITED';
--> statement-breakpoint
CREATE INDEX `agency_invitations_user_idx` ON `agency_invitations` (`user_id`,`status`,`expires_at`);
--> statement-breakpoint
-- One pending invitation per agency and address (the address is stored lower-cased).
CREATE UNIQUE INDEX `agency_invitations_pending_address_unique` ON `agency_invitations` (`agency_id`,`email`) WHERE status = 'INVITED';
--> statement-breakpoint
CREATE INDEX `agency_invitations_email_idx` ON `agency_invitations` (`email`,`status`);
