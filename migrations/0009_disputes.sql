CREATE TABLE `dispute_evidence` (
	`dispute_id` integer NOT NULL,
	`file_id` integer NOT NULL,
	PRIMARY KEY(`dispute_id`, `file_id`),
	FOREIGN KEY (`dispute_id`) REFERENCES `disputes`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `dispute_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`dispute_id` integer NOT NULL,
	`author_id` integer NOT NULL,
	`body` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`dispute_id`) REFERENCES `disputes`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `dispute_messages_dispute_idx` ON `dispute_messages` (`dispute_id`,`id`);--> statement-breakpoint
CREATE TABLE `disputes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`reservation_id` integer NOT NULL,
	`opened_by` integer NOT NULL,
	`opener_role` text NOT NULL,
	`reason` text NOT NULL,
	`description` text NOT NULL,
	`status` text DEFAULT 'OPEN' NOT NULL,
	`previous_status` text NOT NULL,
	`frozen_cents` integer DEFAULT 0 NOT NULL,
	`shortfall_cents` integer DEFAULT 0 NOT NULL,
	`resolution` text,
	`refund_cents` integer,
	`resolution_note` text,
	`resolved_by` integer,
	`resolved_at` text,
	`token` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`opened_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `disputes_token_unique` ON `disputes` (`token`);--> statement-breakpoint
CREATE UNIQUE INDEX `disputes_reservation_unique` ON `disputes` (`reservation_id`);--> statement-breakpoint
CREATE INDEX `disputes_status_idx` ON `disputes` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `disputes_opened_by_idx` ON `disputes` (`opened_by`,`created_at`);