package sqlserver

import "testing"

func TestSQLRewritesPlaceholders(t *testing.T) {
	for in, want := range map[string]string{
		"SELECT 1": "SELECT 1",
		"SELECT x FROM t WHERE a = $1 AND b = $2":       "SELECT x FROM t WHERE a = @p1 AND b = @p2",
		"UPDATE t SET a = $10 WHERE id = $1":            "UPDATE t SET a = @p10 WHERE id = @p1",
		"SELECT '$1', \"c$2\" FROM t WHERE a = $3":      "SELECT '$1', \"c$2\" FROM t WHERE a = @p3",
		"SELECT 'it''s $1' FROM t WHERE a = $1":         "SELECT 'it''s $1' FROM t WHERE a = @p1",
		"SELECT $ FROM t WHERE a = $1x":                 "SELECT $ FROM t WHERE a = @p1x",
		"SELECT a FROM t WHERE a IN ($1, $2) AND b=$3$": "SELECT a FROM t WHERE a IN (@p1, @p2) AND b=@p3$",
	} {
		if got := SQL(in); got != want {
			t.Errorf("SQL(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSQLCastsToTheColumnsType pins the cast rule on small texts: which parameters
// are cast, to what, and which are only renamed.
func TestSQLCastsToTheColumnsType(t *testing.T) {
	for in, want := range map[string]string{
		"SELECT c_id FROM customer WHERE c_id = $1":                                   "SELECT c_id FROM customer WHERE c_id = @p1",
		"SELECT 1 FROM trade WHERE t_dts >= $2 AND t_dts <= $3":                       "SELECT 1 FROM trade WHERE t_dts >= CAST(@p2 AS DATETIME2(3)) AND t_dts <= CAST(@p3 AS DATETIME2(3))",
		"SELECT 1 FROM broker WHERE b_name IN ($1, $2)":                               "SELECT 1 FROM broker WHERE b_name IN (CAST(@p1 AS VARCHAR(49)), CAST(@p2 AS VARCHAR(49)))",
		"SELECT 1 FROM company WHERE co_id BETWEEN $1 AND $2":                         "SELECT 1 FROM company WHERE co_id BETWEEN @p1 AND @p2",
		"SELECT 1 FROM daily_market WHERE dm_date BETWEEN $1 AND $2":                  "SELECT 1 FROM daily_market WHERE dm_date BETWEEN CAST(@p1 AS DATE) AND CAST(@p2 AS DATE)",
		"SELECT TOP ($1) t_id FROM trade":                                             "SELECT TOP (@p1) t_id FROM trade",
		"UPDATE trade SET t_exec_name = $1, t_tax = $2 WHERE t_s_symb = $3":           "UPDATE trade SET t_exec_name = @p1, t_tax = CAST(@p2 AS DECIMAL(10,2)) WHERE t_s_symb = CAST(@p3 AS VARCHAR(15))",
		"UPDATE broker SET b_comm_total = b_comm_total + $1 WHERE b_id = $2":          "UPDATE broker SET b_comm_total = b_comm_total + CAST(@p1 AS DECIMAL(12,2)) WHERE b_id = @p2",
		"INSERT INTO cash_transaction (ct_t_id, ct_amt, ct_name) VALUES ($1, $2, $3)": "INSERT INTO cash_transaction (ct_t_id, ct_amt, ct_name) VALUES (@p1, CAST(@p2 AS DECIMAL(10,2)), @p3)",
		"SELECT 1 FROM trade WHERE t_s_symb = '$1' AND t_s_symb = $1":                 "SELECT 1 FROM trade WHERE t_s_symb = '$1' AND t_s_symb = CAST(@p1 AS VARCHAR(15))",
	} {
		if got := SQL(in); got != want {
			t.Errorf("SQL(%q)\n got %s\nwant %s", in, got, want)
		}
	}
}
