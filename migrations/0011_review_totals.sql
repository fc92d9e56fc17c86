CREATE TABLE `review_totals` (
	`reviewer_role` text PRIMARY KEY NOT NULL,
	`visible_count` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- The totals of the reviews already there (hand-written: drizzle-kit does not generate data steps).
INSERT INTO `review_totals` (`reviewer_role`, `visible_count`) SELECT `reviewer_role`, COUNT(*) FROM `reviews` WHERE `hidden` = 0 GROUP BY `reviewer_role`;
