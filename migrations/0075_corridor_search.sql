-- Finding a trip across the corridor (issue 47, CONTRACT section 30): places with coordinates,
-- trips placed on the map when published or edited, saved searches with a radius and a flexible
-- date. The places themselves and the placing of today's trips are the next migration (generated
-- by scripts/build-reference-data.mjs).
CREATE TABLE `places` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`country_code` text NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`latitude` real NOT NULL,
	`longitude` real NOT NULL,
	`population` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `places_key_idx` ON `places` (`name_key`,`country_code`,`population`);
--> statement-breakpoint
-- Where a trip leaves from and arrives, when its city is a known place (NULL otherwise: such a trip
-- is found by its city's name only), and the 2-degree cell of each point (src/lib/geo.ts).
ALTER TABLE `announcements` ADD `departure_latitude` real;
--> statement-breakpoint
ALTER TABLE `announcements` ADD `departure_longitude` real;
--> statement-breakpoint
ALTER TABLE `announcements` ADD `arrival_latitude` real;
--> statement-breakpoint
ALTER TABLE `announcements` ADD `arrival_longitude` real;
--> statement-breakpoint
ALTER TABLE `announcements` ADD `departure_cell` integer;
--> statement-breakpoint
ALTER TABLE `announcements` ADD `arrival_cell` integer;
--> statement-breakpoint
-- The nearby search seeks each (departure cell, arrival cell) pair of its two discs, then the
-- departure dates; the coordinates in the index let the exact box be checked without the row.
CREATE INDEX `announcements_cells_idx` ON `announcements` (`departure_cell`,`arrival_cell`,`status`,`departure_date`,`departure_latitude`,`departure_longitude`,`arrival_latitude`,`arrival_longitude`);
--> statement-breakpoint
CREATE INDEX `announcements_departure_cell_idx` ON `announcements` (`departure_cell`,`status`,`departure_date`,`departure_latitude`,`departure_longitude`);
--> statement-breakpoint
-- One end asked only: its cells, then the dates.
CREATE INDEX `announcements_arrival_cell_idx` ON `announcements` (`arrival_cell`,`status`,`departure_date`,`arrival_latitude`,`arrival_longitude`);
--> statement-breakpoint
ALTER TABLE `search_alerts` ADD `radius_km` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `search_alerts` ADD `date` text;
--> statement-breakpoint
ALTER TABLE `search_alerts` ADD `date_flex_days` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `search_alerts` ADD `departure_latitude` real;
--> statement-breakpoint
ALTER TABLE `search_alerts` ADD `departure_longitude` real;
--> statement-breakpoint
ALTER TABLE `search_alerts` ADD `arrival_latitude` real;
--> statement-breakpoint
ALTER TABLE `search_alerts` ADD `arrival_longitude` real;
