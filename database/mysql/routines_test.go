package mysql

import (
	"fmt"
	"testing"

	driver "github.com/go-sql-driver/mysql"

	"github.com/brokerbench/brokerbench/database"
)

// signalled is the error a procedure's SIGNAL SQLSTATE state reaches the driver as:
// MariaDB gives every SIGNAL of a user state the number 1644.
func signalled(state, msg string) error {
	e := &driver.MySQLError{Number: 1644, Message: msg}
	copy(e.SQLState[:], state)
	return fmt.Errorf("Trade-Order: %w", e)
}

// TestRoutineStatesClassified: the procedures' SQLSTATEs are told apart by state, not
// by number or message: BBR01 is a rollback, BBC0n frame n's check with the
// procedure's message, and any other SIGNAL (45000) a plain fatal error.
func TestRoutineStatesClassified(t *testing.T) {
	if got := database.Classify(signalled("BBR01", "Trade-Order frame 5: intended rollback")); got != database.Rollback {
		t.Errorf("BBR01: %s, want rollback", got)
	}
	f, what, ok := database.RoutineCheck(signalled("BBC03", "commission rate: no row"))
	if !ok || f != 3 || what != "commission rate: no row" {
		t.Errorf("BBC03: frame %d %q %v", f, what, ok)
	}
	for _, state := range []string{"45000", "BBC00", "BBR02", "23000"} {
		err := signalled(state, "BBC01 in the message is not the state")
		if _, _, ok := database.RoutineCheck(err); ok {
			t.Errorf("%s: taken for a routine's check", state)
		}
		if got := database.Classify(err); got != database.Fatal {
			t.Errorf("%s: %s, want fatal", state, got)
		}
	}
}

// TestListArgs: a list goes to a procedure as a JSON array (nil as an empty one); bytes
// and scalars go as they are.
func TestListArgs(t *testing.T) {
	got := myArgs([]any{[]int64{7, 8}, []string{"a \"b\""}, []int64(nil), []byte("x"), int64(3)})
	want := []any{`[7,8]`, `["a \"b\""]`, `[]`, []byte("x"), int64(3)}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("myArgs: %q, want %q", got, want)
	}
	if c := routineDialect.Call("bb_x", 3); SQL(c) != "CALL bb_x(?, ?, ?)" {
		t.Errorf("call: %s", SQL(c))
	}
}
