-- Issue 44 (CONTRACT 27): the reference each mobile-money operation was sent with (Wave's
-- client_reference), so the daily reconciliation can name the operation a line of Wave's Balance
-- API is about: a payout line carries its client_reference and no payout id. Set when the operation
-- is recorded; the rows before this migration get the reference their code sent (reconstructed
-- from their subject, as pay-in.ts, mobile-money-settlement.ts and mobile-payout.ts built it).
ALTER TABLE `mobile_money_operations` ADD `reference` text;
--> statement-breakpoint
UPDATE `mobile_money_operations` SET `reference` = CASE
	WHEN `kind` = 'PAYOUT' THEN 'withdrawal-' || `withdrawal_id`
	WHEN `subject` LIKE 'refund-late:%' THEN 'refund-late-' || `reservation_id`
	WHEN `kind` = 'REFUND' THEN 'refund-' || (SELECT `reservation_number` FROM `reservations` WHERE `reservations`.`id` = `mobile_money_operations`.`reservation_id`)
	ELSE (SELECT `reservation_number` FROM `reservations` WHERE `reservations`.`id` = `mobile_money_operations`.`reservation_id`)
END;
--> statement-breakpoint
CREATE INDEX `mobile_money_operations_reference_idx` ON `mobile_money_operations` (`rail`, `reference`);
