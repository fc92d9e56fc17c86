-- Cancellation policies (CONTRACT section 22): each trip carries FLEXIBLE, MODERATE (the default,
-- also for every trip published before) or STRICT; a reservation keeps the policy it was booked
-- under, as it keeps its route and dates (section 19), so a later edit of the trip never worsens
-- a booked sender's refund.
ALTER TABLE `announcements` ADD `cancellation_policy` text DEFAULT 'MODERATE' NOT NULL;
--> statement-breakpoint
ALTER TABLE `reservations` ADD `cancellation_policy` text DEFAULT 'MODERATE' NOT NULL;
--> statement-breakpoint
-- The price suggestion reads a route's trips of the last 180 days by countries (and cities).
CREATE INDEX `announcements_country_route_idx` ON `announcements` (`departure_country`,`arrival_country`,`departure_date`);
