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
