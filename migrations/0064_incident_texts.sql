-- An incident's summary as a message key and its values (JSON), so the console and the alerts say it
-- in their reader's language; `summary` keeps the English. Null for incidents opened before.
ALTER TABLE `incidents` ADD `summary_text` text;
