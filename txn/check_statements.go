package txn

import (
	"fmt"
	"strings"

	"github.com/brokerbench/brokerbench/database"
)

// The statements of `brokerbench check`. Each lists violating rows only, at most
// maxPerCheck+1 of them. SQL Server spells every one differently (TOP for LIMIT,
// COUNT_BIG for the counts, BIT compared with 1/0), so each has its override.
//
// MariaDB and MySQL have two, for their plans: the checks that visit every completed
// trade (broker totals, completed trades) select it by t_st_id = 'CMPT' or by
// account, and InnoDB estimates such a range at no more than half the table (its
// range estimate is capped there) where it is nearly all of it, so on the portable
// texts the optimizer reaches each trade through a secondary index and a primary-key
// lookup; reading the table in order (IGNORE INDEX) costs a fraction of that. The
// portable completed-trades text also has MariaDB materialize each grouped derived
// table whole, a temporary table of a row per trade; counting through each child
// table's primary key per trade needs none. The texts keep the portable ones' rows,
// columns and order.
var (
	checkLimit = fmt.Sprintf("\nLIMIT %d", maxPerCheck+1)
	checkTop   = fmt.Sprintf("SELECT TOP %d ", maxPerCheck+1)

	checkBrokerTotals = checkStatements.statement("Check.BrokerTotals", `SELECT b_id, b_num_trades, b_comm_total, COALESCE(n, 0), COALESCE(comm, 0)
FROM broker LEFT JOIN (
  SELECT ca_b_id, COUNT(*) AS n, SUM(t_comm) AS comm
  FROM trade, customer_account
  WHERE t_st_id = 'CMPT' AND ca_id = t_ca_id
  GROUP BY ca_b_id) done ON done.ca_b_id = b_id
WHERE b_num_trades <> COALESCE(n, 0) OR b_comm_total <> COALESCE(comm, 0)
ORDER BY b_id`+checkLimit,
		override{database.MySQL, `SELECT b_id, b_num_trades, b_comm_total, COALESCE(n, 0), COALESCE(comm, 0)
FROM broker LEFT JOIN (
  SELECT ca_b_id, COUNT(*) AS n, SUM(t_comm) AS comm
  FROM trade IGNORE INDEX (i_t_st_id, i_t_ca_id_dts), customer_account
  WHERE t_st_id = 'CMPT' AND ca_id = t_ca_id
  GROUP BY ca_b_id) done ON done.ca_b_id = b_id
WHERE b_num_trades <> COALESCE(n, 0) OR b_comm_total <> COALESCE(comm, 0)
ORDER BY b_id` + checkLimit},
		override{database.SQLServer, checkTop + `b_id, b_num_trades, b_comm_total, COALESCE(n, 0), COALESCE(comm, 0)
FROM broker LEFT JOIN (
  SELECT ca_b_id, COUNT_BIG(*) AS n, SUM(t_comm) AS comm
  FROM trade, customer_account
  WHERE t_st_id = 'CMPT' AND ca_id = t_ca_id
  GROUP BY ca_b_id) done ON done.ca_b_id = b_id
WHERE b_num_trades <> COALESCE(n, 0) OR b_comm_total <> COALESCE(comm, 0)
ORDER BY b_id`})
	checkHoldingSummaries = checkStatements.statement("Check.HoldingSummaries", `SELECT hs_ca_id, hs_s_symb, hs_qty, COALESCE(lots, 0)
FROM holding_summary LEFT JOIN (
  SELECT h_ca_id, h_s_symb, SUM(h_qty) AS lots FROM holding GROUP BY h_ca_id, h_s_symb) h
  ON h.h_ca_id = hs_ca_id AND h.h_s_symb = hs_s_symb
WHERE hs_qty <> COALESCE(lots, 0)
ORDER BY hs_ca_id, hs_s_symb`+checkLimit,
		override{database.SQLServer, checkTop + `hs_ca_id, hs_s_symb, hs_qty, COALESCE(lots, 0)
FROM holding_summary LEFT JOIN (
  SELECT h_ca_id, h_s_symb, SUM(h_qty) AS lots FROM holding GROUP BY h_ca_id, h_s_symb) h
  ON h.h_ca_id = hs_ca_id AND h.h_s_symb = hs_s_symb
WHERE hs_qty <> COALESCE(lots, 0)
ORDER BY hs_ca_id, hs_s_symb`})
	checkOrphanLots = checkStatements.statement("Check.OrphanLots", `SELECT h_t_id, h_ca_id, h_s_symb FROM holding
WHERE NOT EXISTS (SELECT 1 FROM holding_summary WHERE hs_ca_id = h_ca_id AND hs_s_symb = h_s_symb)
ORDER BY h_t_id`+checkLimit,
		override{database.SQLServer, checkTop + `h_t_id, h_ca_id, h_s_symb FROM holding
WHERE NOT EXISTS (SELECT 1 FROM holding_summary WHERE hs_ca_id = h_ca_id AND hs_s_symb = h_s_symb)
ORDER BY h_t_id`})
	checkCompletedTrades = checkStatements.statement("Check.CompletedTrades", `SELECT t_id, COALESCE(se, 0), COALESCE(th, 0), t_is_cash, COALESCE(ct, 0)
FROM trade
  LEFT JOIN (SELECT se_t_id, COUNT(*) AS se FROM settlement GROUP BY se_t_id) s ON s.se_t_id = t_id
  LEFT JOIN (SELECT th_t_id, COUNT(*) AS th FROM trade_history WHERE th_st_id = 'CMPT' GROUP BY th_t_id) h ON h.th_t_id = t_id
  LEFT JOIN (SELECT ct_t_id, COUNT(*) AS ct FROM cash_transaction GROUP BY ct_t_id) c ON c.ct_t_id = t_id
WHERE t_st_id = 'CMPT'
  AND (COALESCE(se, 0) <> 1 OR COALESCE(th, 0) <> 1 OR (t_is_cash AND COALESCE(ct, 0) <> 1) OR (NOT t_is_cash AND COALESCE(ct, 0) <> 0))
ORDER BY t_id`+checkLimit,
		override{database.MySQL, `SELECT t_id, se, th, t_is_cash, ct FROM (
  SELECT t_id, t_is_cash,
    (SELECT COUNT(*) FROM settlement WHERE se_t_id = t_id) AS se,
    (SELECT COUNT(*) FROM trade_history WHERE th_t_id = t_id AND th_st_id = 'CMPT') AS th,
    (SELECT COUNT(*) FROM cash_transaction WHERE ct_t_id = t_id) AS ct
  FROM trade IGNORE INDEX (i_t_st_id)
  WHERE t_st_id = 'CMPT') done
WHERE se <> 1 OR th <> 1 OR (t_is_cash AND ct <> 1) OR (NOT t_is_cash AND ct <> 0)
ORDER BY t_id` + checkLimit},
		override{database.SQLServer, checkTop + `t_id, COALESCE(se, 0), COALESCE(th, 0), t_is_cash, COALESCE(ct, 0)
FROM trade
  LEFT JOIN (SELECT se_t_id, COUNT_BIG(*) AS se FROM settlement GROUP BY se_t_id) s ON s.se_t_id = t_id
  LEFT JOIN (SELECT th_t_id, COUNT_BIG(*) AS th FROM trade_history WHERE th_st_id = 'CMPT' GROUP BY th_t_id) h ON h.th_t_id = t_id
  LEFT JOIN (SELECT ct_t_id, COUNT_BIG(*) AS ct FROM cash_transaction GROUP BY ct_t_id) c ON c.ct_t_id = t_id
WHERE t_st_id = 'CMPT'
  AND (COALESCE(se, 0) <> 1 OR COALESCE(th, 0) <> 1 OR (t_is_cash = 1 AND COALESCE(ct, 0) <> 1) OR (t_is_cash = 0 AND COALESCE(ct, 0) <> 0))
ORDER BY t_id`})
	checkBalances = checkStatements.statement("Check.Balances", `SELECT a.ca_id, a.ca_bal, o.bal + COALESCE(cash, 0)
FROM customer_account a
  LEFT JOIN bb_opening_balance o ON o.ca_id = a.ca_id
  LEFT JOIN (SELECT t_ca_id, SUM(ct_amt) AS cash FROM cash_transaction, trade WHERE t_id = ct_t_id GROUP BY t_ca_id) c
    ON c.t_ca_id = a.ca_id
WHERE o.ca_id IS NULL OR a.ca_bal <> o.bal + COALESCE(cash, 0)
ORDER BY a.ca_id`+checkLimit,
		override{database.SQLServer, checkTop + `a.ca_id, a.ca_bal, o.bal + COALESCE(cash, 0)
FROM customer_account a
  LEFT JOIN bb_opening_balance o ON o.ca_id = a.ca_id
  LEFT JOIN (SELECT t_ca_id, SUM(ct_amt) AS cash FROM cash_transaction, trade WHERE t_id = ct_t_id GROUP BY t_ca_id) c
    ON c.t_ca_id = a.ca_id
WHERE o.ca_id IS NULL OR a.ca_bal <> o.bal + COALESCE(cash, 0)
ORDER BY a.ca_id`})
	checkRunTimeTrades = checkStatements.statement("Check.RunTimeTrades", `SELECT t_id, t_st_id FROM trade
WHERE t_id >= $1 AND t_st_id NOT IN ('CMPT', 'SBMT', 'CNCL')
  AND NOT (t_st_id = 'PNDG' AND EXISTS (SELECT 1 FROM trade_request WHERE tr_t_id = t_id))
ORDER BY t_id`+checkLimit,
		override{database.SQLServer, checkTop + `t_id, t_st_id FROM trade
WHERE t_id >= $1 AND t_st_id NOT IN ('CMPT', 'SBMT', 'CNCL')
  AND NOT (t_st_id = 'PNDG' AND EXISTS (SELECT 1 FROM trade_request WHERE tr_t_id = t_id))
ORDER BY t_id`})
	checkLoadedTrades = checkStatements.statement("Check.LoadedTrades", `SELECT t_id, t_st_id FROM trade WHERE t_id < $1 AND t_st_id <> 'CMPT'
ORDER BY t_id`+checkLimit,
		override{database.SQLServer, checkTop + `t_id, t_st_id FROM trade WHERE t_id < $1 AND t_st_id <> 'CMPT'
ORDER BY t_id`})
	checkRequests = checkStatements.statement("Check.Requests", `SELECT tr_t_id, t_st_id FROM trade_request LEFT JOIN trade ON t_id = tr_t_id
WHERE t_st_id IS NULL OR t_st_id <> 'PNDG'
ORDER BY tr_t_id`+checkLimit,
		override{database.SQLServer, checkTop + `tr_t_id, t_st_id FROM trade_request LEFT JOIN trade ON t_id = tr_t_id
WHERE t_st_id IS NULL OR t_st_id <> 'PNDG'
ORDER BY tr_t_id`})
	checkRowCounts = checkStatements.statement("Check.RowCounts", rowCountsSQL("COUNT(*)"),
		override{database.SQLServer, rowCountsSQL("COUNT_BIG(*)")})
	checkLoadedTradeCount = checkStatements.statement("Check.LoadedTradeCount", `SELECT COUNT(*) FROM trade WHERE t_id <= $1`,
		override{database.SQLServer, `SELECT COUNT_BIG(*) FROM trade WHERE t_id <= $1`})
)

// rowCountsSQL counts the rows of every counted table in one statement.
func rowCountsSQL(count string) string {
	var counts []string
	for _, t := range countedTables {
		counts = append(counts, fmt.Sprintf("SELECT '%s', %s FROM %s", t, count, t))
	}
	return strings.Join(counts, "\nUNION ALL ")
}
