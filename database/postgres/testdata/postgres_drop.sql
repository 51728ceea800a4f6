-- brokerbench PostgreSQL schema drop (golden; regenerate with -update)

-- objects of others that depend on brokerbench's: the drop lists them and refuses
WITH ours AS (
  SELECT c.oid, c.reltype, n.nspname || '.' || c.relname AS name
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND c.relname IN ('status_type', 'trade_type', 'taxrate', 'zip_code', 'sector', 'industry', 'address', 'exchange', 'charge', 'commission_rate', 'company', 'company_competitor', 'security', 'daily_market', 'financial', 'last_trade', 'news_item', 'news_xref', 'customer', 'customer_taxrate', 'broker', 'customer_account', 'account_permission', 'watch_list', 'watch_item', 'trade', 'trade_history', 'trade_request', 'settlement', 'cash_transaction', 'holding_summary', 'holding', 'holding_history', 'bb_load', 'bb_opening_balance', 'seq_trade_id')
), deps AS (
  SELECT CASE WHEN d.classid = 'pg_rewrite'::regclass THEN 'pg_class'::regclass ELSE d.classid END AS classid,
    CASE WHEN d.classid = 'pg_rewrite'::regclass
      THEN (SELECT r.ev_class FROM pg_rewrite r WHERE r.oid = d.objid) ELSE d.objid END AS objid,
    o.name AS ref
  FROM pg_depend d
  JOIN ours o ON (d.refclassid = 'pg_class'::regclass AND d.refobjid = o.oid)
    OR (d.refclassid = 'pg_type'::regclass AND d.refobjid = o.reltype)
  WHERE d.deptype = 'n'
    AND NOT (d.classid = 'pg_class'::regclass AND d.objid IN (SELECT oid FROM ours))
    AND NOT (d.classid = 'pg_constraint'::regclass AND d.objid IN
      (SELECT k.oid FROM pg_constraint k WHERE k.conrelid IN (SELECT oid FROM ours)))
    AND NOT (d.classid = 'pg_rewrite'::regclass AND d.objid IN
      (SELECT r.oid FROM pg_rewrite r WHERE r.ev_class IN (SELECT oid FROM ours)))
)
SELECT DISTINCT i.type || ' ' || i.identity || ' (on ' || deps.ref || ')'
FROM deps, pg_identify_object(deps.classid, deps.objid, 0) i ORDER BY 1;

-- the drops, referencing tables first
DROP TABLE IF EXISTS "public"."bb_opening_balance";
DROP TABLE IF EXISTS "public"."bb_load";
DROP TABLE IF EXISTS "public"."holding_history";
DROP TABLE IF EXISTS "public"."holding";
DROP TABLE IF EXISTS "public"."holding_summary";
DROP TABLE IF EXISTS "public"."cash_transaction";
DROP TABLE IF EXISTS "public"."settlement";
DROP TABLE IF EXISTS "public"."trade_request";
DROP TABLE IF EXISTS "public"."trade_history";
DROP TABLE IF EXISTS "public"."trade";
DROP TABLE IF EXISTS "public"."watch_item";
DROP TABLE IF EXISTS "public"."watch_list";
DROP TABLE IF EXISTS "public"."account_permission";
DROP TABLE IF EXISTS "public"."customer_account";
DROP TABLE IF EXISTS "public"."broker";
DROP TABLE IF EXISTS "public"."customer_taxrate";
DROP TABLE IF EXISTS "public"."customer";
DROP TABLE IF EXISTS "public"."news_xref";
DROP TABLE IF EXISTS "public"."news_item";
DROP TABLE IF EXISTS "public"."last_trade";
DROP TABLE IF EXISTS "public"."financial";
DROP TABLE IF EXISTS "public"."daily_market";
DROP TABLE IF EXISTS "public"."security";
DROP TABLE IF EXISTS "public"."company_competitor";
DROP TABLE IF EXISTS "public"."company";
DROP TABLE IF EXISTS "public"."commission_rate";
DROP TABLE IF EXISTS "public"."charge";
DROP TABLE IF EXISTS "public"."exchange";
DROP TABLE IF EXISTS "public"."address";
DROP TABLE IF EXISTS "public"."industry";
DROP TABLE IF EXISTS "public"."sector";
DROP TABLE IF EXISTS "public"."zip_code";
DROP TABLE IF EXISTS "public"."taxrate";
DROP TABLE IF EXISTS "public"."trade_type";
DROP TABLE IF EXISTS "public"."status_type";
DROP SEQUENCE IF EXISTS "public"."seq_trade_id";

-- a schema name that needs quoting
DROP TABLE IF EXISTS "it's ]`""odd"."status_type";
