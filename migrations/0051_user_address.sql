-- The sender's postal address (CONTRACT 26): the CN23 prints the sender's street, postal code and
-- city. Optional on the profile (PUT /user/me); cleared by erasure; in the data export with the
-- rest of the profile.
ALTER TABLE `users` ADD `address` text;
ALTER TABLE `users` ADD `postal_code` text;
ALTER TABLE `users` ADD `city` text;
