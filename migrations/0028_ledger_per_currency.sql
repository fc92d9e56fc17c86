-- Every ledger account is per currency (CONTRACT section 20): its key ends with its currency
-- (`WALLET:USER:12` becomes `WALLET:USER:12:EUR`, `ESCROW` becomes `ESCROW:EUR`). Today's accounts
-- were all opened in the platform currency (EUR), recorded in their `currency` column: each keeps
-- its row, id, balance and lines (lines refer to the account id), so nothing moves and nothing is
-- lost. Rerunning it changes nothing (a key already ending with its currency is left alone).
UPDATE `ledger_accounts` SET `key` = `key` || ':' || `currency`
WHERE substr(`key`, -length(`currency`) - 1) <> ':' || `currency`;
