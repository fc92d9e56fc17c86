-- The carrier's public cancellationRate kept per carrier (CONTRACT sections 22 and 30, flat cost):
-- every listed trip showed it by counting the carrier's reservations (one index entry per
-- reservation the carrier ever had, on every page row); now a page row reads one row per carrier.
-- The rule, per reservation (unchanged from features/users/cancellation-rate.ts until then):
--   cancelled = CANCELLED, paid, and cancelled by the carrier side (anyone but the sender);
--   counted   = confirmed (whatever became of it) or so cancelled.
-- cancellationRate = cancelled / counted (0 without any). Triggers keep the two sums in the very
-- statement that writes the reservation (so in the batch that confirms, cancels or expires it),
-- whatever path writes it: acceptance, either party's or an agency's staff's cancellation, the
-- trip's removal, a suspension, the expiry jobs, fixtures and the bench's data set. An UPDATE adds
-- the row's new weight and takes away its old one (netted per carrier), so a statement that
-- changes nothing the rule reads, or a second cancellation of a cancelled row, adds nothing. SQL
-- has no functions: the rule's CASE is written once per trigger and in the backfill, identically;
-- test/cancellation-counts.test.ts compares the kept sums with a recount after every path.
CREATE TABLE `carrier_cancellation_counts` (
	`carrier_id` integer PRIMARY KEY NOT NULL,
	`cancelled` integer DEFAULT 0 NOT NULL,
	`counted` integer DEFAULT 0 NOT NULL
) WITHOUT ROWID;--> statement-breakpoint
INSERT INTO `carrier_cancellation_counts` (`carrier_id`, `cancelled`, `counted`)
SELECT `carrier_id`, sum(`cancelled`), sum(max(`cancelled`, `confirmed`)) FROM (
	SELECT `carrier_id`,
		CASE WHEN `status` = 'CANCELLED' AND `paid_at` IS NOT NULL AND `cancelled_by` IS NOT NULL AND `cancelled_by` <> `sender_id` THEN 1 ELSE 0 END AS `cancelled`,
		CASE WHEN `confirmed_at` IS NOT NULL THEN 1 ELSE 0 END AS `confirmed`
	FROM `reservations`
)
WHERE true
GROUP BY `carrier_id`
HAVING sum(max(`cancelled`, `confirmed`)) > 0;--> statement-breakpoint
CREATE TRIGGER `carrier_cancellation_counts_on_insert` AFTER INSERT ON `reservations`
WHEN NEW.`confirmed_at` IS NOT NULL OR NEW.`status` = 'CANCELLED'
BEGIN
	INSERT INTO `carrier_cancellation_counts` (`carrier_id`, `cancelled`, `counted`)
	SELECT `carrier_id`, `cancelled`, max(`cancelled`, `confirmed`) FROM (
		SELECT NEW.`carrier_id` AS `carrier_id`,
			CASE WHEN NEW.`status` = 'CANCELLED' AND NEW.`paid_at` IS NOT NULL AND NEW.`cancelled_by` IS NOT NULL AND NEW.`cancelled_by` <> NEW.`sender_id` THEN 1 ELSE 0 END AS `cancelled`,
			CASE WHEN NEW.`confirmed_at` IS NOT NULL THEN 1 ELSE 0 END AS `confirmed`
	)
	WHERE max(`cancelled`, `confirmed`) > 0
	ON CONFLICT (`carrier_id`) DO UPDATE SET `cancelled` = `cancelled` + excluded.`cancelled`, `counted` = `counted` + excluded.`counted`;
END;--> statement-breakpoint
CREATE TRIGGER `carrier_cancellation_counts_on_update` AFTER UPDATE OF `status`, `paid_at`, `confirmed_at`, `cancelled_by`, `sender_id`, `carrier_id` ON `reservations`
BEGIN
	INSERT INTO `carrier_cancellation_counts` (`carrier_id`, `cancelled`, `counted`)
	SELECT `carrier_id`, sum(`sign` * `cancelled`), sum(`sign` * max(`cancelled`, `confirmed`)) FROM (
		SELECT `sign`, `carrier_id`,
			CASE WHEN `status` = 'CANCELLED' AND `paid_at` IS NOT NULL AND `cancelled_by` IS NOT NULL AND `cancelled_by` <> `sender_id` THEN 1 ELSE 0 END AS `cancelled`,
			CASE WHEN `confirmed_at` IS NOT NULL THEN 1 ELSE 0 END AS `confirmed`
		FROM (
			SELECT -1 AS `sign`, OLD.`carrier_id` AS `carrier_id`, OLD.`status` AS `status`, OLD.`paid_at` AS `paid_at`,
				OLD.`cancelled_by` AS `cancelled_by`, OLD.`sender_id` AS `sender_id`, OLD.`confirmed_at` AS `confirmed_at`
			UNION ALL
			SELECT 1, NEW.`carrier_id`, NEW.`status`, NEW.`paid_at`, NEW.`cancelled_by`, NEW.`sender_id`, NEW.`confirmed_at`
		)
	)
	WHERE true
	GROUP BY `carrier_id`
	HAVING sum(`sign` * `cancelled`) <> 0 OR sum(`sign` * max(`cancelled`, `confirmed`)) <> 0
	ON CONFLICT (`carrier_id`) DO UPDATE SET `cancelled` = `cancelled` + excluded.`cancelled`, `counted` = `counted` + excluded.`counted`;
END;--> statement-breakpoint
CREATE TRIGGER `carrier_cancellation_counts_on_delete` AFTER DELETE ON `reservations`
WHEN OLD.`confirmed_at` IS NOT NULL OR OLD.`status` = 'CANCELLED'
BEGIN
	UPDATE `carrier_cancellation_counts` SET
		`cancelled` = `cancelled` - (CASE WHEN OLD.`status` = 'CANCELLED' AND OLD.`paid_at` IS NOT NULL AND OLD.`cancelled_by` IS NOT NULL AND OLD.`cancelled_by` <> OLD.`sender_id` THEN 1 ELSE 0 END),
		`counted` = `counted` - max(CASE WHEN OLD.`status` = 'CANCELLED' AND OLD.`paid_at` IS NOT NULL AND OLD.`cancelled_by` IS NOT NULL AND OLD.`cancelled_by` <> OLD.`sender_id` THEN 1 ELSE 0 END,
			CASE WHEN OLD.`confirmed_at` IS NOT NULL THEN 1 ELSE 0 END)
	WHERE `carrier_id` = OLD.`carrier_id`;
END;
