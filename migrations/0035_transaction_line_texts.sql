-- The money history in the reader's language: each ledger entry, and each transaction written
-- with it, keeps its line as a message key with its values (JSON,
-- src/features/money/ledger/ledger-text.ts) beside the English text it was written with. Lines
-- written before this migration have none and are shown in English, as they were written: their
-- values (amounts, numbers) are inside the English text and are not parsed back out of it.
ALTER TABLE `ledger_entries` ADD `description_text` text;
ALTER TABLE `transactions` ADD `description_text` text;
