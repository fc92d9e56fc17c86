-- Declared contents (CONTRACT 21): what the sender declares each item is worth, in the trip's
-- currency as integer minor units (cents; whole francs for XOF). Null when not declared (v1 clients).
ALTER TABLE `reservation_items` ADD `declared_value` integer;
