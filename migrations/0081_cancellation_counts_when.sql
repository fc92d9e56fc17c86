-- migration 0079's update trigger, run only when the row's weight may change: a status change
-- to or from CANCELLED (the rule reads the status only as "is CANCELLED"), or a change of another
-- column the rule reads. Every other status change (a deposit, transit, a delivery: the hot
-- writes) no longer runs the trigger's statement. Same body; test/cancellation-counts.test.ts.
DROP TRIGGER `carrier_cancellation_counts_on_update`;--> statement-breakpoint
CREATE TRIGGER `carrier_cancellation_counts_on_update` AFTER UPDATE OF `status`, `paid_at`, `confirmed_at`, `cancelled_by`, `sender_id`, `carrier_id` ON `reservations`
WHEN (OLD.`status` IS NOT NEW.`status` AND 'CANCELLED' IN (OLD.`status`, NEW.`status`))
	OR OLD.`paid_at` IS NOT NEW.`paid_at` OR OLD.`confirmed_at` IS NOT NEW.`confirmed_at` OR OLD.`cancelled_by` IS NOT NEW.`cancelled_by`
	OR OLD.`sender_id` IS NOT NEW.`sender_id` OR OLD.`carrier_id` IS NOT NEW.`carrier_id`
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
END;
