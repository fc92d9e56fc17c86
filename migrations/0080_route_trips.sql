-- The route search's total made flat (CONTRACT section 30): a search by both cities from today
-- (the common "Dakar to Paris", no end date) summed one route_day_trips row per day with trips
-- (migration 0078), so it still grew with the route's calendar (about 23 days at x1, 60 at x5 in
-- the benchmark). route_trips holds the route's listed trips, all days together; such a search
-- reads that row and takes away the route's days before its first day (a departed trip stays
-- listed until the cron closes it: at most the day or so since), one row each. A day whose total
-- falls to 0 is deleted, so those past days are only the ones still holding a listed trip.
-- Triggers on route_day_trips keep route_trips, in the statement that writes the trip (0078's
-- triggers write the day), whatever path writes it. A search with an end date still sums its days.
CREATE TABLE `route_trips` (
	`departure_city_key` text NOT NULL,
	`arrival_city_key` text NOT NULL,
	`trips` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`departure_city_key`, `arrival_city_key`)
) WITHOUT ROWID;--> statement-breakpoint
DELETE FROM `route_day_trips` WHERE `trips` = 0;--> statement-breakpoint
INSERT INTO `route_trips` (`departure_city_key`, `arrival_city_key`, `trips`)
SELECT `departure_city_key`, `arrival_city_key`, sum(`trips`) FROM `route_day_trips`
WHERE true
GROUP BY `departure_city_key`, `arrival_city_key`;--> statement-breakpoint
CREATE TRIGGER `route_trips_on_day_insert` AFTER INSERT ON `route_day_trips`
BEGIN
	INSERT INTO `route_trips` (`departure_city_key`, `arrival_city_key`, `trips`)
	VALUES (NEW.`departure_city_key`, NEW.`arrival_city_key`, NEW.`trips`)
	ON CONFLICT (`departure_city_key`, `arrival_city_key`) DO UPDATE SET `trips` = `trips` + excluded.`trips`;
END;--> statement-breakpoint
CREATE TRIGGER `route_trips_on_day_update` AFTER UPDATE OF `trips` ON `route_day_trips`
WHEN OLD.`trips` IS NOT NEW.`trips`
BEGIN
	UPDATE `route_trips` SET `trips` = `trips` + NEW.`trips` - OLD.`trips`
	WHERE `departure_city_key` = NEW.`departure_city_key` AND `arrival_city_key` = NEW.`arrival_city_key`;
	DELETE FROM `route_day_trips`
	WHERE NEW.`trips` = 0 AND `departure_city_key` = NEW.`departure_city_key` AND `arrival_city_key` = NEW.`arrival_city_key` AND `departure_date` = NEW.`departure_date`;
END;--> statement-breakpoint
CREATE TRIGGER `route_trips_on_day_delete` AFTER DELETE ON `route_day_trips`
WHEN OLD.`trips` <> 0
BEGIN
	UPDATE `route_trips` SET `trips` = `trips` - OLD.`trips`
	WHERE `departure_city_key` = OLD.`departure_city_key` AND `arrival_city_key` = OLD.`arrival_city_key`;
END;
