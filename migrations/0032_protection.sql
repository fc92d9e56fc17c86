-- The protection option (CONTRACT section 21). A protected reservation keeps the terms it was
-- booked with: the declared value counted, what a payout can reach (the declared value capped at
-- the maximum covered value) and the premium, charged beside the transport price and posted to
-- the protection reserve. An unprotected reservation has 0 and nulls.
ALTER TABLE `reservations` ADD `protection_premium_cents` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `reservations` ADD `protection_declared_cents` integer;
--> statement-breakpoint
ALTER TABLE `reservations` ADD `protection_coverage_cents` integer;
--> statement-breakpoint
-- A PROTECTION_PAYOUT resolution: what the sender received from the reserve (docs/decisions-protection.md).
ALTER TABLE `disputes` ADD `protection_payout_cents` integer;
--> statement-breakpoint
-- The premium is its own line on the invoice (captured) and the credit note (refunded with the
-- price in full); `total_cents` stays the transport price (carrier + commission).
ALTER TABLE `money_documents` ADD `protection_cents` integer DEFAULT 0 NOT NULL;
