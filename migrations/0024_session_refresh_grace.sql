-- Sessions on phones (CONTRACT 19): a refresh token presented again within 30 s of its rotation
-- gets the same new pair. Existing sessions have no previous token yet: no grace until they rotate.
ALTER TABLE `sessions` ADD `issued_at` integer;
--> statement-breakpoint
ALTER TABLE `sessions` ADD `issued_roles` text;
--> statement-breakpoint
ALTER TABLE `sessions` ADD `previous_refresh_jti` text;
