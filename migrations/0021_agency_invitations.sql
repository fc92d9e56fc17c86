-- CONTRACT section 19: adding an employee is an invitation the user accepts or declines within 7 days.
CREATE TABLE `agency_invitations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`agency_id` integer NOT NULL,
	`branch_id` integer NOT NULL,
	`user_id` integer NOT NULL,
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
CREATE UNIQUE INDEX `agency_invitations_pending_unique` ON `agency_invitations` (`agency_id`,`user_id`) WHERE status = 'INVITED';--> statement-breakpoint
CREATE INDEX `agency_invitations_user_idx` ON `agency_invitations` (`user_id`,`status`,`expires_at`);
