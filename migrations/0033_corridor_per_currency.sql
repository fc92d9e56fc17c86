-- The corridor per currency (issue 29, CONTRACT section 20). An automatic-withdrawal setting is
-- per currency: each wallet's balance is compared with a threshold of its own currency (a euro
-- threshold says nothing about francs). Today's settings are EUR ones, as every wallet was.
DROP INDEX IF EXISTS `withdrawal_settings_owner_unique`;
--> statement-breakpoint
ALTER TABLE `withdrawal_settings` ADD `currency` text DEFAULT 'EUR' NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX `withdrawal_settings_owner_currency_unique` ON `withdrawal_settings` (`owner_type`,`owner_id`,`currency`);
--> statement-breakpoint
-- A search alert's price limit is an amount of one currency: it matches trips priced in it only.
-- NULL while the alert has no price limit; today's limits were euro cents.
ALTER TABLE `search_alerts` ADD `currency` text;
--> statement-breakpoint
UPDATE `search_alerts` SET `currency` = 'EUR' WHERE `max_price_per_kg_cents` IS NOT NULL;
