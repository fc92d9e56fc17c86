CREATE TABLE `announcements` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`carrier_id` integer NOT NULL,
	`agency_id` integer,
	`branch_id` integer,
	`departure_city` text NOT NULL,
	`departure_country` text NOT NULL,
	`arrival_city` text NOT NULL,
	`arrival_country` text NOT NULL,
	`departure_city_key` text NOT NULL,
	`arrival_city_key` text NOT NULL,
	`departure_date` text NOT NULL,
	`arrival_date` text NOT NULL,
	`total_weight_g` integer NOT NULL,
	`reserved_weight_g` integer DEFAULT 0 NOT NULL,
	`price_per_kg_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`pickup_point` text,
	`delivery_point` text,
	`description` text,
	`transport_mode` text NOT NULL,
	`accepted_category_ids` text DEFAULT '[]' NOT NULL,
	`status` text DEFAULT 'ACTIVE' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`carrier_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `announcements_status_departure_idx` ON `announcements` (`status`,`departure_date`);--> statement-breakpoint
CREATE INDEX `announcements_route_idx` ON `announcements` (`departure_city_key`,`arrival_city_key`,`departure_date`);--> statement-breakpoint
CREATE INDEX `announcements_carrier_idx` ON `announcements` (`carrier_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `announcements_agency_idx` ON `announcements` (`agency_id`);--> statement-breakpoint
CREATE TABLE `categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`prohibited` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `categories_code_unique` ON `categories` (`code`);--> statement-breakpoint
CREATE TABLE `reservation_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`reservation_id` integer NOT NULL,
	`category_id` integer,
	`code` text,
	`name` text NOT NULL,
	`reserved_quantity` real DEFAULT 1 NOT NULL,
	`description` text,
	`weight` real,
	`length_cm` real,
	`width_cm` real,
	`height_cm` real,
	`is_fragile` integer DEFAULT false NOT NULL,
	`contains_liquids` integer DEFAULT false NOT NULL,
	`image_url` text,
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `reservation_items_reservation_idx` ON `reservation_items` (`reservation_id`);--> statement-breakpoint
CREATE INDEX `reservation_items_category_idx` ON `reservation_items` (`category_id`);--> statement-breakpoint
CREATE TABLE `reservations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`reservation_number` text NOT NULL,
	`announcement_id` integer NOT NULL,
	`sender_id` integer NOT NULL,
	`carrier_id` integer NOT NULL,
	`agency_id` integer,
	`status` text DEFAULT 'PENDING_PAYMENT' NOT NULL,
	`reserved_weight_g` integer NOT NULL,
	`content_info` text,
	`deposit_code` text NOT NULL,
	`delivery_code` text NOT NULL,
	`recipient` text NOT NULL,
	`recipient_token` text NOT NULL,
	`price_per_kg_cents` integer NOT NULL,
	`total_amount_cents` integer NOT NULL,
	`platform_commission_cents` integer NOT NULL,
	`carrier_amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`payment_id` text,
	`authorization_id` text,
	`capture_id` text,
	`refund_id` text,
	`payment_status` text,
	`payment_date` text,
	`payment_approval_url` text,
	`invoice_id` text,
	`invoice_url` text,
	`invoice_status` text,
	`payment_deadline` text NOT NULL,
	`paid_at` text,
	`confirmed_at` text,
	`deposited_at` text,
	`delivered_at` text,
	`cancelled_at` text,
	`cancelled_by` integer,
	`cancellation_reason` text,
	`idempotency_key` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`announcement_id`) REFERENCES `announcements`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`sender_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`carrier_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reservations_number_unique` ON `reservations` (`reservation_number`);--> statement-breakpoint
CREATE UNIQUE INDEX `reservations_recipient_token_unique` ON `reservations` (`recipient_token`);--> statement-breakpoint
CREATE INDEX `reservations_carrier_idx` ON `reservations` (`carrier_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `reservations_sender_idx` ON `reservations` (`sender_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `reservations_announcement_idx` ON `reservations` (`announcement_id`,`status`);--> statement-breakpoint
CREATE INDEX `reservations_status_deadline_idx` ON `reservations` (`status`,`payment_deadline`);--> statement-breakpoint
CREATE INDEX `reservations_status_paid_idx` ON `reservations` (`status`,`paid_at`);--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`type` text NOT NULL,
	`title` text NOT NULL,
	`message` text NOT NULL,
	`data` text,
	`read_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `notifications_user_idx` ON `notifications` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `notifications_user_unread_idx` ON `notifications` (`user_id`,`read_at`);