-- Pause switches (CONTRACT 27): new checkouts or new payouts of one provider paused by a
-- super-admin during an outage; a row is a pause in force.
CREATE TABLE `provider_pauses` (
	`provider` text NOT NULL,
	`operation` text NOT NULL CHECK (`operation` IN ('CHECKOUT', 'PAYOUT')),
	`reason` text,
	`paused_by` integer,
	`paused_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`provider`, `operation`),
	FOREIGN KEY (`paused_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
