-- Issue 44 (CONTRACT 27): how a reconciliation report read its provider, as message keys and their
-- values (JSON list), so the console and GET /superadmin/reconciliation say it in the reader's
-- language; `note` keeps the English. Null for reports written before.
ALTER TABLE `reconciliation_reports` ADD `note_text` text;
