-- Offers and counter-offers (issue 31, CONTRACT section 22). A sender proposes a weight and a
-- price per kg with the booking details (kept as JSON until accepted); the carrier side accepts
-- (a PENDING_PAYMENT reservation at the agreed price), declines or counters; the sender answers a
-- counter. Offers expire after 48 h or at departure (the cron).
CREATE TABLE `offers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`announcement_id` integer NOT NULL,
	`sender_id` integer NOT NULL,
	`carrier_id` integer NOT NULL,
	`agency_id` integer,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`reserved_weight_g` integer NOT NULL,
	`price_per_kg_minor` integer NOT NULL,
	`counter_price_per_kg_minor` integer,
	`currency` text NOT NULL,
	`details` text NOT NULL,
	`message` text,
	`reservation_id` integer,
	`expires_at` text NOT NULL,
	`answered_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`announcement_id`) REFERENCES `announcements`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`sender_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`carrier_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`agency_id`) REFERENCES `agencies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `offers_status_expires_idx` ON `offers` (`status`,`expires_at`);
--> statement-breakpoint
CREATE INDEX `offers_sender_idx` ON `offers` (`sender_id`,`created_at`);
--> statement-breakpoint
CREATE INDEX `offers_carrier_idx` ON `offers` (`carrier_id`,`created_at`);
--> statement-breakpoint
CREATE INDEX `offers_agency_idx` ON `offers` (`agency_id`,`created_at`);
--> statement-breakpoint
CREATE INDEX `offers_announcement_idx` ON `offers` (`announcement_id`);
