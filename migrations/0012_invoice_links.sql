CREATE TABLE `invoice_sequences` (
	`series` text PRIMARY KEY NOT NULL,
	`last_number` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE `reservations` ADD `invoice_transaction_id` integer;--> statement-breakpoint
-- The invoice of each reservation already paid is its PAYMENT transaction (hand-written: drizzle-kit
-- does not generate data steps). Its link is now signed when read, so the stored URL goes.
UPDATE `reservations` SET `invoice_transaction_id` = (SELECT `t`.`id` FROM `transactions` `t` JOIN `ledger_entries` `e` ON `e`.`id` = `t`.`ledger_entry_id` WHERE `e`.`key` = 'escrow-in:' || `reservations`.`id` AND `t`.`type` = 'PAYMENT') WHERE `invoice_url` IS NOT NULL;--> statement-breakpoint
ALTER TABLE `reservations` DROP COLUMN `invoice_url`;
