// Command pgxfloor measures the least a pgx client can spend on brokerbench's round trips,
// for scripts/bench-cpu.sh: --clients connections of brokerbench's own pool
// (database/postgres.Open: the same pgx settings, statement cache and codecs), each
// sending round trips of --statements statements in one pipeline, as fast as the server
// answers. A statement reads one integer: a primary-key read of pgbench_accounts (from
// pgbench -i), or with --series N a count of N generate_series rows, so that a round
// trip can cost the server what one of brokerbench's does.
// Nothing else runs: no inputs, no checks, no rows beyond one number, no recorder. Its
// client CPU per round trip is the floor under brokerbench's with pgx: what the
// workload's round trips cost before any of brokerbench's own work (docs/driver-cpu.md).
//
// It prints one line, "round_trips N statements M seconds S", and exits 1 on any
// error. A benchmark helper, not a product command.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/database/postgres"
)

// pgbench -i -s 10 loads this many accounts.
const accounts = 1_000_000

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "pgxfloor:", err)
		os.Exit(1)
	}
}

func run() error {
	dsn := flag.String("db", "", "PostgreSQL DSN of a database holding pgbench's tables (scale 10)")
	clients := flag.Int("clients", 8, "connections, each sending round trips one after the other")
	statements := flag.Int("statements", 1, "statements per round trip (one pipeline)")
	seconds := flag.Float64("seconds", 40, "how long to run")
	series := flag.Int("series", 0, "make each statement count this many rows of generate_series on the server instead of reading one account: server work per round trip like the workload's (0: the account read)")
	flag.Parse()
	if *dsn == "" || *clients < 1 || *statements < 1 || *seconds <= 0 || *series < 0 {
		return errors.New("usage: pgxfloor --db DSN [--clients N] [--statements K] [--seconds S] [--series ROWS]")
	}
	ctx := context.Background()
	pg, err := postgres.Open(ctx, *dsn, database.Options{MaxConns: *clients, AppName: "brokerbench-pgxfloor"})
	if err != nil {
		return err
	}
	defer pg.Pool.Close()

	read := "SELECT abalance FROM pgbench_accounts WHERE aid = $1"
	if *series > 0 {
		read = "SELECT count(*) + $1 - $1 FROM generate_series(1, " + fmt.Sprint(*series) + ")"
	}
	var trips atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, *clients)
	end := time.Now().Add(time.Duration(*seconds * float64(time.Second)))
	for c := 0; c < *clients; c++ {
		wg.Add(1)
		go func(seed uint64) {
			defer wg.Done()
			conn, err := pg.Pool.Acquire(ctx)
			if err != nil {
				errs <- err
				return
			}
			defer conn.Release()
			rng := rand.New(rand.NewPCG(seed, 1))
			var balance int64
			scan := func(r pgx.Row) error { return r.Scan(&balance) }
			for time.Now().Before(end) {
				b := &pgx.Batch{}
				for i := 0; i < *statements; i++ {
					b.Queue(read, rng.IntN(accounts)+1).QueryRow(scan)
				}
				if err := conn.SendBatch(ctx, b).Close(); err != nil {
					errs <- err
					return
				}
				trips.Add(1)
			}
		}(uint64(c))
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	fmt.Printf("round_trips %d statements %d seconds %g\n", trips.Load(), trips.Load()*int64(*statements), *seconds)
	return nil
}
