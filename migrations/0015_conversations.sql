CREATE TABLE `conversations` (
	`reservation_id` integer PRIMARY KEY NOT NULL,
	`version` integer NOT NULL,
	`last_message` text,
	`last_message_at` text,
	`sender_unread` integer DEFAULT 0 NOT NULL,
	`carrier_unread` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversations_last_message_idx` ON `conversations` (`last_message_at`);