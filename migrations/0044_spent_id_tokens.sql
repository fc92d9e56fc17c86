-- Social sign-in accepts each provider ID token once (CONTRACT 25): the token's `jti`, or the
-- SHA-256 of the token where it has none (Apple's), is remembered until the token expires. The
-- primary key makes two concurrent exchanges of one token give one session (INSERT ... ON
-- CONFLICT DO NOTHING, the changed-row count checked); the cron purges expired rows.
CREATE TABLE `spent_id_tokens` (
	`token_key` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `spent_id_tokens_expires_idx` ON `spent_id_tokens` (`expires_at`);
