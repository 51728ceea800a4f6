package postgres_test

import (
	"context"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
)

// TryLock takes a free lock at once and refuses, without waiting, one that another
// session holds; the release frees it for the next session, a session's own lock in
// another database does not count, and a closed pool releases its lock.
func TestTryLock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := testpg.NewDB(t)
	first := testpg.OpenDB(t, dsn, database.Options{MaxConns: 1}).(database.Locker)
	second := testpg.OpenDB(t, dsn, database.Options{MaxConns: 1}).(database.Locker)
	elsewhere := testpg.OpenDB(t, testpg.NewDB(t), database.Options{MaxConns: 1}).(database.Locker)
	try := func(l database.Locker, want bool, what string) func() {
		t.Helper()
		unlock, held, err := l.TryLock(ctx, "brokerbench test lock")
		if err != nil || held != want || (unlock != nil) != want {
			t.Fatalf("%s: held %v, unlock %v, err %v; want held %v", what, held, unlock != nil, err, want)
		}
		return unlock
	}
	unlock := try(first, true, "a free lock")
	try(second, false, "a lock another session holds")
	try(elsewhere, true, "the same name in another database")()
	unlock()
	try(second, true, "a released lock")()
}
