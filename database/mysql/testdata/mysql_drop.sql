-- brokerbench MariaDB schema drop (golden; regenerate with -update)

-- objects of others that depend on brokerbench's: the drop lists them and refuses
SELECT CONCAT('foreign key ', rc.CONSTRAINT_NAME, ' of ', rc.CONSTRAINT_SCHEMA, '.', rc.TABLE_NAME,
    ' (on ', rc.UNIQUE_CONSTRAINT_SCHEMA, '.', rc.REFERENCED_TABLE_NAME, ')') AS dependent
FROM information_schema.REFERENTIAL_CONSTRAINTS rc
WHERE rc.UNIQUE_CONSTRAINT_SCHEMA = 'brokerbench' AND rc.REFERENCED_TABLE_NAME IN ('status_type', 'trade_type', 'taxrate', 'zip_code', 'sector', 'industry', 'address', 'exchange', 'charge', 'commission_rate', 'company', 'company_competitor', 'security', 'daily_market', 'financial', 'last_trade', 'news_item', 'news_xref', 'customer', 'customer_taxrate', 'broker', 'customer_account', 'account_permission', 'watch_list', 'watch_item', 'trade', 'trade_history', 'trade_request', 'settlement', 'cash_transaction', 'holding_summary', 'holding', 'holding_history', 'bb_load', 'bb_opening_balance', 'seq_trade_id')
  AND NOT (rc.CONSTRAINT_SCHEMA = 'brokerbench' AND rc.TABLE_NAME IN ('status_type', 'trade_type', 'taxrate', 'zip_code', 'sector', 'industry', 'address', 'exchange', 'charge', 'commission_rate', 'company', 'company_competitor', 'security', 'daily_market', 'financial', 'last_trade', 'news_item', 'news_xref', 'customer', 'customer_taxrate', 'broker', 'customer_account', 'account_permission', 'watch_list', 'watch_item', 'trade', 'trade_history', 'trade_request', 'settlement', 'cash_transaction', 'holding_summary', 'holding', 'holding_history', 'bb_load', 'bb_opening_balance', 'seq_trade_id'))
UNION
SELECT CONCAT('view ', v.TABLE_SCHEMA, '.', v.TABLE_NAME, ' (on ', 'brokerbench', '.', o.name, ')')
FROM information_schema.VIEWS v
JOIN (SELECT 'status_type' AS name UNION ALL SELECT 'trade_type' AS name UNION ALL SELECT 'taxrate' AS name UNION ALL SELECT 'zip_code' AS name UNION ALL SELECT 'sector' AS name UNION ALL SELECT 'industry' AS name UNION ALL SELECT 'address' AS name UNION ALL SELECT 'exchange' AS name UNION ALL SELECT 'charge' AS name UNION ALL SELECT 'commission_rate' AS name UNION ALL SELECT 'company' AS name UNION ALL SELECT 'company_competitor' AS name UNION ALL SELECT 'security' AS name UNION ALL SELECT 'daily_market' AS name UNION ALL SELECT 'financial' AS name UNION ALL SELECT 'last_trade' AS name UNION ALL SELECT 'news_item' AS name UNION ALL SELECT 'news_xref' AS name UNION ALL SELECT 'customer' AS name UNION ALL SELECT 'customer_taxrate' AS name UNION ALL SELECT 'broker' AS name UNION ALL SELECT 'customer_account' AS name UNION ALL SELECT 'account_permission' AS name UNION ALL SELECT 'watch_list' AS name UNION ALL SELECT 'watch_item' AS name UNION ALL SELECT 'trade' AS name UNION ALL SELECT 'trade_history' AS name UNION ALL SELECT 'trade_request' AS name UNION ALL SELECT 'settlement' AS name UNION ALL SELECT 'cash_transaction' AS name UNION ALL SELECT 'holding_summary' AS name UNION ALL SELECT 'holding' AS name UNION ALL SELECT 'holding_history' AS name UNION ALL SELECT 'bb_load' AS name UNION ALL SELECT 'bb_opening_balance' AS name UNION ALL SELECT 'seq_trade_id' AS name) o
  ON LOCATE(CONCAT('`', 'brokerbench', '`.`', o.name, '`'), v.VIEW_DEFINITION) > 0
ORDER BY 1;

-- the drops, referencing tables first
DROP TABLE IF EXISTS `brokerbench`.`bb_opening_balance`;
DROP TABLE IF EXISTS `brokerbench`.`bb_load`;
DROP TABLE IF EXISTS `brokerbench`.`holding_history`;
DROP TABLE IF EXISTS `brokerbench`.`holding`;
DROP TABLE IF EXISTS `brokerbench`.`holding_summary`;
DROP TABLE IF EXISTS `brokerbench`.`cash_transaction`;
DROP TABLE IF EXISTS `brokerbench`.`settlement`;
DROP TABLE IF EXISTS `brokerbench`.`trade_request`;
DROP TABLE IF EXISTS `brokerbench`.`trade_history`;
DROP TABLE IF EXISTS `brokerbench`.`trade`;
DROP TABLE IF EXISTS `brokerbench`.`watch_item`;
DROP TABLE IF EXISTS `brokerbench`.`watch_list`;
DROP TABLE IF EXISTS `brokerbench`.`account_permission`;
DROP TABLE IF EXISTS `brokerbench`.`customer_account`;
DROP TABLE IF EXISTS `brokerbench`.`broker`;
DROP TABLE IF EXISTS `brokerbench`.`customer_taxrate`;
DROP TABLE IF EXISTS `brokerbench`.`customer`;
DROP TABLE IF EXISTS `brokerbench`.`news_xref`;
DROP TABLE IF EXISTS `brokerbench`.`news_item`;
DROP TABLE IF EXISTS `brokerbench`.`last_trade`;
DROP TABLE IF EXISTS `brokerbench`.`financial`;
DROP TABLE IF EXISTS `brokerbench`.`daily_market`;
DROP TABLE IF EXISTS `brokerbench`.`security`;
DROP TABLE IF EXISTS `brokerbench`.`company_competitor`;
DROP TABLE IF EXISTS `brokerbench`.`company`;
DROP TABLE IF EXISTS `brokerbench`.`commission_rate`;
DROP TABLE IF EXISTS `brokerbench`.`charge`;
DROP TABLE IF EXISTS `brokerbench`.`exchange`;
DROP TABLE IF EXISTS `brokerbench`.`address`;
DROP TABLE IF EXISTS `brokerbench`.`industry`;
DROP TABLE IF EXISTS `brokerbench`.`sector`;
DROP TABLE IF EXISTS `brokerbench`.`zip_code`;
DROP TABLE IF EXISTS `brokerbench`.`taxrate`;
DROP TABLE IF EXISTS `brokerbench`.`trade_type`;
DROP TABLE IF EXISTS `brokerbench`.`status_type`;
DROP SEQUENCE IF EXISTS `brokerbench`.`seq_trade_id`;

-- a schema name that needs quoting
DROP TABLE IF EXISTS `it's ]``"odd`.`status_type`;
