package postgres_test

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/database/postgres"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
)

// The statement caches are fitted to the workload unless the DSN sizes them, and a
// statement is still prepared once per connection, not once per use.
func TestStatementCachesFitTheWorkload(t *testing.T) {
	dsn := testpg.NewDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, c := range []struct {
		name       string
		params     url.Values
		stmt, desc int
	}{
		{"pgx's defaults", nil, 256, 0},
		{"sizes in the DSN", url.Values{"statement_cache_capacity": {"100"}, "description_cache_capacity": {"7"}}, 100, 7},
		{"cache_describe mode", url.Values{"default_query_exec_mode": {"cache_describe"}}, 256, 512},
	} {
		t.Run(c.name, func(t *testing.T) {
			u, err := url.Parse(dsn)
			if err != nil {
				t.Fatal(err)
			}
			q := u.Query()
			for k, v := range c.params {
				q[k] = v
			}
			u.RawQuery = q.Encode()
			pg, err := postgres.Open(ctx, u.String(), database.Options{MaxConns: 1, Timeout: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			defer pg.Close()
			cfg := pg.Pool.Config().ConnConfig
			if cfg.StatementCacheCapacity != c.stmt || cfg.DescriptionCacheCapacity != c.desc {
				t.Fatalf("statement cache %d, description cache %d; want %d and %d",
					cfg.StatementCacheCapacity, cfg.DescriptionCacheCapacity, c.stmt, c.desc)
			}
			// Three runs of one statement on the pool's one connection: prepared once.
			for i := 0; i < 3; i++ {
				var n int
				if err := pg.QueryRow(ctx, "SELECT $1::int + 1", i).Scan(&n); err != nil || n != i+1 {
					t.Fatalf("run %d: %d, %v", i, n, err)
				}
			}
			var prepared int
			if err := pg.QueryRow(ctx, "SELECT count(*) FROM pg_prepared_statements WHERE statement = 'SELECT $1::int + 1'").Scan(&prepared); err != nil {
				t.Fatal(err)
			}
			want := 1
			if c.desc == 512 { // cache_describe describes once, then sends unnamed statements
				want = 0
			}
			if prepared != want {
				t.Fatalf("%d prepared statements for the repeated query, want %d", prepared, want)
			}
		})
	}
}
