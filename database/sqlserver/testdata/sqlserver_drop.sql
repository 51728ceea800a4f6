-- brokerbench SQL Server schema drop (golden; regenerate with -update)

-- objects of others that depend on brokerbench's: the drop lists them and refuses
WITH ours AS (
  SELECT object_id, name FROM sys.objects
  WHERE schema_id = SCHEMA_ID(N'dbo') AND type IN ('U', 'SO') AND name IN (N'status_type', N'trade_type', N'taxrate', N'zip_code', N'sector', N'industry', N'address', N'exchange', N'charge', N'commission_rate', N'company', N'company_competitor', N'security', N'daily_market', N'financial', N'last_trade', N'news_item', N'news_xref', N'customer', N'customer_taxrate', N'broker', N'customer_account', N'account_permission', N'watch_list', N'watch_item', N'trade', N'trade_history', N'trade_request', N'settlement', N'cash_transaction', N'holding_summary', N'holding', N'holding_history', N'bb_load', N'bb_opening_balance', N'seq_trade_id')
)
SELECT LOWER(o.type_desc) + N' ' + OBJECT_SCHEMA_NAME(o.object_id) + N'.' + o.name + N' (on ' + N'dbo' + N'.' + r.name + N')'
FROM sys.sql_expression_dependencies d
JOIN ours r ON r.object_id = d.referenced_id
JOIN sys.objects o ON o.object_id = d.referencing_id
WHERE o.object_id NOT IN (SELECT object_id FROM ours)
  AND NOT (o.type = 'P' AND o.name LIKE N'bb[_]%' AND o.schema_id = SCHEMA_ID(N'dbo'))
UNION
SELECT N'foreign key ' + fk.name + N' of ' + OBJECT_SCHEMA_NAME(fk.parent_object_id) + N'.' + OBJECT_NAME(fk.parent_object_id)
  + N' (on ' + N'dbo' + N'.' + r.name + N')'
FROM sys.foreign_keys fk
JOIN ours r ON r.object_id = fk.referenced_object_id
WHERE fk.parent_object_id NOT IN (SELECT object_id FROM ours)
ORDER BY 1;

-- the drops, referencing tables first
DROP TABLE IF EXISTS [dbo].[bb_opening_balance];
DROP TABLE IF EXISTS [dbo].[bb_load];
DROP TABLE IF EXISTS [dbo].[holding_history];
DROP TABLE IF EXISTS [dbo].[holding];
DROP TABLE IF EXISTS [dbo].[holding_summary];
DROP TABLE IF EXISTS [dbo].[cash_transaction];
DROP TABLE IF EXISTS [dbo].[settlement];
DROP TABLE IF EXISTS [dbo].[trade_request];
DROP TABLE IF EXISTS [dbo].[trade_history];
DROP TABLE IF EXISTS [dbo].[trade];
DROP TABLE IF EXISTS [dbo].[watch_item];
DROP TABLE IF EXISTS [dbo].[watch_list];
DROP TABLE IF EXISTS [dbo].[account_permission];
DROP TABLE IF EXISTS [dbo].[customer_account];
DROP TABLE IF EXISTS [dbo].[broker];
DROP TABLE IF EXISTS [dbo].[customer_taxrate];
DROP TABLE IF EXISTS [dbo].[customer];
DROP TABLE IF EXISTS [dbo].[news_xref];
DROP TABLE IF EXISTS [dbo].[news_item];
DROP TABLE IF EXISTS [dbo].[last_trade];
DROP TABLE IF EXISTS [dbo].[financial];
DROP TABLE IF EXISTS [dbo].[daily_market];
DROP TABLE IF EXISTS [dbo].[security];
DROP TABLE IF EXISTS [dbo].[company_competitor];
DROP TABLE IF EXISTS [dbo].[company];
DROP TABLE IF EXISTS [dbo].[commission_rate];
DROP TABLE IF EXISTS [dbo].[charge];
DROP TABLE IF EXISTS [dbo].[exchange];
DROP TABLE IF EXISTS [dbo].[address];
DROP TABLE IF EXISTS [dbo].[industry];
DROP TABLE IF EXISTS [dbo].[sector];
DROP TABLE IF EXISTS [dbo].[zip_code];
DROP TABLE IF EXISTS [dbo].[taxrate];
DROP TABLE IF EXISTS [dbo].[trade_type];
DROP TABLE IF EXISTS [dbo].[status_type];
DROP SEQUENCE IF EXISTS [dbo].[seq_trade_id];

-- a schema name that needs quoting
DROP TABLE IF EXISTS [it's ]]`"odd].[status_type];
