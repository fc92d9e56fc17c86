CREATE TABLE `console_form_tokens` (
	`session_id` text NOT NULL,
	`nonce` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`session_id`, `nonce`),
	FOREIGN KEY (`session_id`) REFERENCES `console_sessions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `console_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`csrf_key` text NOT NULL,
	`last_seen_at` text NOT NULL,
	`revoked_at` text,
	`revoked_reason` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `console_sessions_user_idx` ON `console_sessions` (`user_id`,`revoked_at`);