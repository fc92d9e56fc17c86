-- The public search's total for a route (CONTRACT section 30, flat cost): listed trips per route
-- and departure day, so "Dakar to Paris from today" sums one row per day that has trips instead of
-- reading one index entry per trip. Listed = ACTIVE and its publisher not suspended (the search's
-- own rule, migration 0077). Triggers keep it in the statement that writes the trip, whatever code
-- path writes it: publishing, editing the route or the date, a status change (FULL, cancelled,
-- completed), a publisher's suspension (which sets publisher_suspended), a deletion. Past days
-- stay and are never read (the search starts at today).
CREATE TABLE `route_day_trips` (
	`departure_city_key` text NOT NULL,
	`arrival_city_key` text NOT NULL,
	`departure_date` text NOT NULL,
	`trips` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`departure_city_key`, `arrival_city_key`, `departure_date`)
) WITHOUT ROWID;--> statement-breakpoint
INSERT INTO `route_day_trips` (`departure_city_key`, `arrival_city_key`, `departure_date`, `trips`)
SELECT `departure_city_key`, `arrival_city_key`, `departure_date`, COUNT(*) FROM `announcements`
WHERE `status` = 'ACTIVE' AND `publisher_suspended` = 0
GROUP BY `departure_city_key`, `arrival_city_key`, `departure_date`;--> statement-breakpoint
CREATE TRIGGER `route_day_trips_on_insert` AFTER INSERT ON `announcements`
WHEN NEW.`status` = 'ACTIVE' AND NEW.`publisher_suspended` = 0
BEGIN
	INSERT INTO `route_day_trips` (`departure_city_key`, `arrival_city_key`, `departure_date`, `trips`)
	VALUES (NEW.`departure_city_key`, NEW.`arrival_city_key`, NEW.`departure_date`, 1)
	ON CONFLICT (`departure_city_key`, `arrival_city_key`, `departure_date`) DO UPDATE SET `trips` = `trips` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `route_day_trips_on_update` AFTER UPDATE OF `status`, `publisher_suspended`, `departure_city_key`, `arrival_city_key`, `departure_date` ON `announcements`
WHEN (OLD.`status` = 'ACTIVE' AND OLD.`publisher_suspended` = 0) IS NOT (NEW.`status` = 'ACTIVE' AND NEW.`publisher_suspended` = 0)
	OR OLD.`departure_city_key` IS NOT NEW.`departure_city_key`
	OR OLD.`arrival_city_key` IS NOT NEW.`arrival_city_key`
	OR OLD.`departure_date` IS NOT NEW.`departure_date`
BEGIN
	UPDATE `route_day_trips` SET `trips` = `trips` - 1
	WHERE OLD.`status` = 'ACTIVE' AND OLD.`publisher_suspended` = 0
		AND `departure_city_key` = OLD.`departure_city_key` AND `arrival_city_key` = OLD.`arrival_city_key` AND `departure_date` = OLD.`departure_date`;
	INSERT INTO `route_day_trips` (`departure_city_key`, `arrival_city_key`, `departure_date`, `trips`)
	SELECT NEW.`departure_city_key`, NEW.`arrival_city_key`, NEW.`departure_date`, 1
	WHERE NEW.`status` = 'ACTIVE' AND NEW.`publisher_suspended` = 0
	ON CONFLICT (`departure_city_key`, `arrival_city_key`, `departure_date`) DO UPDATE SET `trips` = `trips` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `route_day_trips_on_delete` AFTER DELETE ON `announcements`
WHEN OLD.`status` = 'ACTIVE' AND OLD.`publisher_suspended` = 0
BEGIN
	UPDATE `route_day_trips` SET `trips` = `trips` - 1
	WHERE `departure_city_key` = OLD.`departure_city_key` AND `arrival_city_key` = OLD.`arrival_city_key` AND `departure_date` = OLD.`departure_date`;
END;
