-- A refund after capture is money the provider still has to move (CONTRACT 26): its history line is
-- PENDING until the provider confirms, and its credit note is issued then. Lines of refunds still
-- waiting when this runs become PENDING; their credit notes, issued before, stay as they are.
ALTER TABLE `transactions` ADD `status` text DEFAULT 'COMPLETED' NOT NULL CHECK (`status` IN ('PENDING', 'COMPLETED'));
UPDATE `transactions` SET `status` = 'PENDING'
WHERE `type` = 'REFUND'
  AND `reservation_id` IN (SELECT `id` FROM `reservations` WHERE `payment_status` = 'REFUND_PENDING');
