-- The incidents' alerts (GET /superadmin/incidents, the console's Incidents page) are read by their
-- template among every message the platform sends: an index, not a scan of the outbox.
CREATE INDEX `deliveries_template_created_idx` ON `deliveries` (`template`, `created_at`);
