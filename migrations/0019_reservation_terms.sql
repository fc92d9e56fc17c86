-- A reservation keeps the terms it was booked on (CONTRACT section 19): the trip's route, dates and
-- points are copied into it. Existing reservations take their trip's current values.
ALTER TABLE `reservations` ADD `departure_city` text NOT NULL DEFAULT '';--> statement-breakpoint
ALTER TABLE `reservations` ADD `departure_country` text NOT NULL DEFAULT '';--> statement-breakpoint
ALTER TABLE `reservations` ADD `arrival_city` text NOT NULL DEFAULT '';--> statement-breakpoint
ALTER TABLE `reservations` ADD `arrival_country` text NOT NULL DEFAULT '';--> statement-breakpoint
ALTER TABLE `reservations` ADD `departure_date` text NOT NULL DEFAULT '';--> statement-breakpoint
ALTER TABLE `reservations` ADD `arrival_date` text NOT NULL DEFAULT '';--> statement-breakpoint
ALTER TABLE `reservations` ADD `pickup_point` text;--> statement-breakpoint
ALTER TABLE `reservations` ADD `delivery_point` text;--> statement-breakpoint
ALTER TABLE `reservations` ADD `trip_changed_at` text;--> statement-breakpoint
UPDATE `reservations` SET
  `departure_city` = (SELECT `departure_city` FROM `announcements` WHERE `announcements`.`id` = `reservations`.`announcement_id`),
  `departure_country` = (SELECT `departure_country` FROM `announcements` WHERE `announcements`.`id` = `reservations`.`announcement_id`),
  `arrival_city` = (SELECT `arrival_city` FROM `announcements` WHERE `announcements`.`id` = `reservations`.`announcement_id`),
  `arrival_country` = (SELECT `arrival_country` FROM `announcements` WHERE `announcements`.`id` = `reservations`.`announcement_id`),
  `departure_date` = (SELECT `departure_date` FROM `announcements` WHERE `announcements`.`id` = `reservations`.`announcement_id`),
  `arrival_date` = (SELECT `arrival_date` FROM `announcements` WHERE `announcements`.`id` = `reservations`.`announcement_id`),
  `pickup_point` = (SELECT `pickup_point` FROM `announcements` WHERE `announcements`.`id` = `reservations`.`announcement_id`),
  `delivery_point` = (SELECT `delivery_point` FROM `announcements` WHERE `announcements`.`id` = `reservations`.`announcement_id`);
