CREATE INDEX `users_kyc_created_idx` ON `users` (`kyc_status`,`created_at`);--> statement-breakpoint
CREATE INDEX `announcements_created_idx` ON `announcements` (`created_at`);--> statement-breakpoint
CREATE INDEX `reservations_created_status_idx` ON `reservations` (`created_at`,`status`);--> statement-breakpoint
CREATE INDEX `reservations_agency_status_idx` ON `reservations` (`agency_id`,`status`);--> statement-breakpoint
CREATE INDEX `audit_logs_target_idx` ON `audit_logs` (`target_type`,`target_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `ledger_entries_created_type_idx` ON `ledger_entries` (`created_at`,`type`);