CREATE TABLE `search_alerts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`name` text,
	`departure_city` text,
	`arrival_city` text,
	`departure_city_key` text,
	`arrival_city_key` text,
	`departure_country` text,
	`arrival_country` text,
	`date_from` text,
	`date_to` text,
	`min_weight_g` integer,
	`max_price_per_kg_cents` integer,
	`category_id` integer,
	`transport_mode` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `search_alerts_user_idx` ON `search_alerts` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `search_alerts_active_idx` ON `search_alerts` (`active`,`arrival_city_key`);--> statement-breakpoint
DROP INDEX `announcements_route_idx`;--> statement-breakpoint
CREATE INDEX `announcements_departure_idx` ON `announcements` (`departure_city_key`,`status`,`departure_date`);--> statement-breakpoint
CREATE INDEX `announcements_arrival_idx` ON `announcements` (`arrival_city_key`,`status`,`departure_date`);--> statement-breakpoint
CREATE INDEX `announcements_route_idx` ON `announcements` (`departure_city_key`,`arrival_city_key`,`status`,`departure_date`);