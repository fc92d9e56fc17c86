-- What people are told, in the reader's language (CONTRACT section 26): a notification keeps its
-- words as a message key with its values (JSON, src/lib/message-text.ts: amounts as minor units
-- and a currency) beside the English title and message it was written with. The in-app list, the
-- e-mail, the push and the SMS all render it from there. Rows written before have none and keep
-- their English message (and the French line of their kind).
ALTER TABLE `notifications` ADD `text` text;
