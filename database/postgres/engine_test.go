package postgres

import "testing"

// The sequence statements are the ones load and schema ran before they moved here.
func TestSequenceDDL(t *testing.T) {
	d := Engine.DDL
	if got := d.CreateSequence("seq_trade_id", 42); got != "CREATE SEQUENCE seq_trade_id START WITH 42" {
		t.Errorf("CreateSequence = %q", got)
	}
	if got := d.DropSequence("seq_trade_id"); got != "DROP SEQUENCE IF EXISTS seq_trade_id" {
		t.Errorf("DropSequence = %q", got)
	}
}

// Portable statement text is PostgreSQL's own.
func TestSQLIsIdentity(t *testing.T) {
	const q = "SELECT x FROM t WHERE a = $1 AND b = '$2'"
	if got := Engine.SQL(q); got != q {
		t.Errorf("SQL(%q) = %q", q, got)
	}
}
