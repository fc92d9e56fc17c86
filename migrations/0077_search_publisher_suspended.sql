-- The search's visibility rule kept on the trip (CONTRACT sections 19 and 30): publisher_suspended
-- is 1 while the trip's publisher is suspended (a private carrier whose account is disabled, or the
-- agency of an agency's trip). The public search filters on it instead of looking up the carrier
-- (or agency) of every matching trip: that lookup was one row read per match, half the cost of the
-- page's total. Triggers keep it in the same statement that suspends or reactivates, whatever code
-- path does it (admin, report closure, erasure), so it still applies at once.
ALTER TABLE `announcements` ADD `publisher_suspended` integer DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE `announcements` SET `publisher_suspended` = 1
WHERE (`agency_id` IS NULL AND EXISTS (SELECT 1 FROM `users` u WHERE u.`id` = `announcements`.`carrier_id` AND u.`enabled` = 0))
   OR (`agency_id` IS NOT NULL AND EXISTS (SELECT 1 FROM `agencies` g WHERE g.`id` = `announcements`.`agency_id` AND g.`status` = 'SUSPENDED'));--> statement-breakpoint
CREATE TRIGGER `announcements_carrier_suspension` AFTER UPDATE OF `enabled` ON `users`
WHEN OLD.`enabled` IS NOT NEW.`enabled`
BEGIN
	UPDATE `announcements` SET `publisher_suspended` = (NEW.`enabled` = 0) WHERE `carrier_id` = NEW.`id` AND `agency_id` IS NULL;
END;--> statement-breakpoint
CREATE TRIGGER `announcements_agency_suspension` AFTER UPDATE OF `status` ON `agencies`
WHEN OLD.`status` IS NOT NEW.`status`
BEGIN
	UPDATE `announcements` SET `publisher_suspended` = (NEW.`status` = 'SUSPENDED') WHERE `agency_id` = NEW.`id`;
END;--> statement-breakpoint
-- A trip written (or moved to another publisher) while its publisher is suspended; publishing
-- refuses that today, the trigger keeps the column right whatever writes the row.
CREATE TRIGGER `announcements_publisher_on_insert` AFTER INSERT ON `announcements`
WHEN (NEW.`agency_id` IS NULL AND EXISTS (SELECT 1 FROM `users` u WHERE u.`id` = NEW.`carrier_id` AND u.`enabled` = 0))
  OR (NEW.`agency_id` IS NOT NULL AND EXISTS (SELECT 1 FROM `agencies` g WHERE g.`id` = NEW.`agency_id` AND g.`status` = 'SUSPENDED'))
BEGIN
	UPDATE `announcements` SET `publisher_suspended` = 1 WHERE `id` = NEW.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `announcements_publisher_on_change` AFTER UPDATE OF `carrier_id`, `agency_id` ON `announcements`
BEGIN
	UPDATE `announcements` SET `publisher_suspended` =
		CASE WHEN NEW.`agency_id` IS NULL
			THEN EXISTS (SELECT 1 FROM `users` u WHERE u.`id` = NEW.`carrier_id` AND u.`enabled` = 0)
			ELSE EXISTS (SELECT 1 FROM `agencies` g WHERE g.`id` = NEW.`agency_id` AND g.`status` = 'SUSPENDED')
		END
	WHERE `id` = NEW.`id`;
END;
