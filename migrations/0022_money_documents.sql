CREATE TABLE `money_documents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`number` text NOT NULL,
	`key` text NOT NULL,
	`reservation_id` integer NOT NULL,
	`transaction_id` integer,
	`invoice_document_id` integer,
	`currency` text NOT NULL,
	`total_cents` integer NOT NULL,
	`carrier_cents` integer NOT NULL,
	`commission_cents` integer NOT NULL,
	`vat_cents` integer NOT NULL,
	`vat_rate` real NOT NULL,
	`issued_at` text NOT NULL,
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`transaction_id`) REFERENCES `transactions`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "money_documents_lines_add_up" CHECK("money_documents"."carrier_cents" + "money_documents"."commission_cents" = "money_documents"."total_cents")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `money_documents_number_unique` ON `money_documents` (`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `money_documents_key_unique` ON `money_documents` (`key`);--> statement-breakpoint
CREATE INDEX `money_documents_transaction_idx` ON `money_documents` (`transaction_id`);--> statement-breakpoint
CREATE INDEX `money_documents_reservation_idx` ON `money_documents` (`reservation_id`);--> statement-breakpoint
CREATE INDEX `transactions_entry_idx` ON `transactions` (`ledger_entry_id`);--> statement-breakpoint
-- Hand-written data steps (drizzle-kit does not generate them). Invoices were issued at authorisation
-- (INV-<year>-<n>); from now on only a capture issues one. An invoice of a payment captured in full
-- becomes its document, with its number, for the whole price (VAT at the default 0.20: the rate of
-- every deployment so far).
INSERT INTO `money_documents` (`kind`, `number`, `key`, `reservation_id`, `transaction_id`, `currency`, `total_cents`, `carrier_cents`, `commission_cents`, `vat_cents`, `vat_rate`, `issued_at`)
SELECT 'INVOICE', `r`.`invoice_id`, 'invoice:' || `r`.`id`, `r`.`id`, `r`.`invoice_transaction_id`, `r`.`currency`, `r`.`total_amount_cents`, `r`.`carrier_amount_cents`, `r`.`platform_commission_cents`,
  CAST(ROUND(`r`.`platform_commission_cents` * 0.2 / 1.2) AS INTEGER), 0.2, coalesce(`r`.`paid_at`, `r`.`created_at`)
FROM `reservations` `r`
WHERE `r`.`invoice_id` IS NOT NULL AND `r`.`invoice_transaction_id` IS NOT NULL AND `r`.`carrier_amount_cents` + `r`.`platform_commission_cents` = `r`.`total_amount_cents`
  AND `r`.`payment_status` IN ('CAPTURED', 'REFUND_PENDING', 'REFUNDED', 'PARTIALLY_REFUNDED');--> statement-breakpoint
-- A partial capture (a late cancellation's kept share) was charged only that share, all commission.
INSERT INTO `money_documents` (`kind`, `number`, `key`, `reservation_id`, `transaction_id`, `currency`, `total_cents`, `carrier_cents`, `commission_cents`, `vat_cents`, `vat_rate`, `issued_at`)
SELECT 'INVOICE', `r`.`invoice_id`, 'invoice:' || `r`.`id`, `r`.`id`, `r`.`invoice_transaction_id`, `r`.`currency`, `k`.`kept`, 0, `k`.`kept`,
  CAST(ROUND(`k`.`kept` * 0.2 / 1.2) AS INTEGER), 0.2, coalesce(`r`.`paid_at`, `r`.`created_at`)
FROM `reservations` `r`
JOIN (SELECT `t`.`reservation_id` AS `rid`, `r2`.`total_amount_cents` - sum(`t`.`amount_cents`) AS `kept` FROM `transactions` `t` JOIN `reservations` `r2` ON `r2`.`id` = `t`.`reservation_id` WHERE `t`.`type` = 'HOLD_RELEASE' GROUP BY `t`.`reservation_id`) `k` ON `k`.`rid` = `r`.`id`
WHERE `r`.`invoice_id` IS NOT NULL AND `r`.`invoice_transaction_id` IS NOT NULL AND `r`.`payment_status` = 'PARTIALLY_CAPTURED' AND `k`.`kept` > 0;--> statement-breakpoint
-- Money never charged has no invoice: an authorisation not captured (yet, or ever: voided, lapsed)
-- loses the invoice issued with it; one still AUTHORIZED gets its invoice when it is captured.
UPDATE `reservations` SET `invoice_id` = NULL, `invoice_transaction_id` = NULL, `invoice_status` = NULL
WHERE `invoice_id` IS NOT NULL AND NOT EXISTS (SELECT 1 FROM `money_documents` `d` WHERE `d`.`key` = 'invoice:' || `reservations`.`id`);
