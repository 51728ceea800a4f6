package loader_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/testkit/testdb"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
	"github.com/brokerbench/brokerbench/loader"
	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/txn"
)

// contentFingerprint digests every loaded table's rows whatever their physical order:
// per table the row count and the sum of a 64-bit hash of each row's text.
func contentFingerprint(t *testing.T, db database.DB) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, tb := range append(schema.Tables(), schema.MetaTables()[1]) {
		var s string
		q := fmt.Sprintf("SELECT count(*) || ':' || COALESCE(sum(hashtextextended(x::text, 0)::numeric), 0) FROM %s x", tb.Name)
		if err := db.QueryRow(context.Background(), q).Scan(&s); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		out[tb.Name] = s
	}
	return out
}

var clean struct {
	once sync.Once
	fp   map[string]string
}

// sameContent compares db's tables with a clean load's (testdb's template, loaded by
// this loader at the same scale and seed), digested once per test process.
func sameContent(t *testing.T, db database.DB) {
	t.Helper()
	clean.once.Do(func() { clean.fp = contentFingerprint(t, open(t, testdb.Loaded(t))) })
	if clean.fp == nil {
		t.Fatal("no fingerprint of the clean load")
	}
	got := contentFingerprint(t, db)
	for name, want := range clean.fp {
		if got[name] != want {
			t.Errorf("%s: %s, a clean load has %s", name, got[name], want)
		}
	}
}

// checkClean runs the consistency check and wants the load complete.
func checkClean(t *testing.T, db database.DB) {
	t.Helper()
	m, err := loader.ReadMarker(context.Background(), db)
	if err != nil {
		t.Fatalf("marker: %v", err)
	}
	v, err := txn.Check(context.Background(), db, m.Scale)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range v {
		t.Errorf("check: %s", x)
	}
}

// waitQuiet waits until no other session works in db: a load cancelled mid-COMMIT
// returns at once while the server may still finish that commit (a cancel request
// is asynchronous), and a resume that read the committed segments before it lands
// loads the segment again (duplicate key on bb_load_segment). A user's --resume
// comes seconds later; the test waits for the server instead.
func waitQuiet(t *testing.T, db database.DB) {
	t.Helper()
	const q = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'"
	for deadline := time.Now().Add(time.Minute); ; {
		var n int
		if err := db.QueryRow(context.Background(), q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions still work in the database a minute after the load was stopped", n)
		}
		time.Sleep(50 * time.Millisecond) // polling the server's state, not timing the test
	}
}

// stopAt returns options that cancel the load once it has committed a segment of
// table, and the context to load with.
func stopAt(o loader.Options, table string) (loader.Options, context.Context, func() bool) {
	ctx, cancel := context.WithCancelCause(context.Background())
	var stopped sync.Once
	hit := false
	o = loader.StopAfterSegment(o, func(tb string, _ int64) {
		if tb == table {
			stopped.Do(func() { hit = true; cancel(errors.New("test: stopped after a segment")) })
		}
	})
	return o, ctx, func() bool { return hit }
}

// An interrupted load, resumed, holds exactly the rows of a clean load; before the
// resume the next load is refused naming --resume and --drop.
func TestResumeAfterInterruptedLoad(t *testing.T) {
	t.Parallel()
	db := open(t, testpg.NewDB(t))
	base := loader.Options{Scale: testdb.Scale, Seed: testdb.Seed, Workers: 2, ToolVersion: "test"}
	o, ctx, hit := stopAt(base, "trade")
	if _, err := loader.Load(ctx, db, o, nil); err == nil || !hit() {
		t.Fatalf("the load was not stopped after trade's first segment: %v", err)
	}
	waitQuiet(t, db)
	if _, err := loader.ReadMarker(context.Background(), db); !errors.Is(err, loader.ErrUnfinished) {
		t.Fatalf("marker after the stop: %v", err)
	}
	_, err := loader.Load(context.Background(), db, base, nil)
	if !errors.Is(err, loader.ErrUnfinished) {
		t.Fatalf("a load over the unfinished one: %v", err)
	}
	for _, w := range []string{"did not finish (", "segments committed", `"brokerbench load --resume"`, `"brokerbench load --drop"`} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("refusal lacks %q: %v", w, err)
		}
	}
	// The marker's scale and seed are taken; a disagreeing one is refused naming them.
	wrong := base
	wrong.Resume, wrong.Seed, wrong.SeedGiven = true, 99, true
	if _, err := loader.Load(context.Background(), db, wrong, nil); !errors.Is(err, loader.ErrMarkerMismatch) ||
		!strings.Contains(err.Error(), fmt.Sprintf("seed %d", testdb.Seed)) {
		t.Fatalf("resume with another seed: %v", err)
	}
	resume := loader.Options{Resume: true, Workers: 2, ToolVersion: "test"}
	st, err := loader.Load(context.Background(), db, resume, nil)
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	if st.Resumed == 0 {
		t.Error("the resume kept no segment")
	}
	t.Logf("resumed after %d committed segments", st.Resumed)
	sameContent(t, db)
	checkClean(t, db)
}

// Three shards load at once; shard 1 is stopped after its first TRADE segment, so the
// other two leave the post-load to the last; a shard with another seed is refused
// naming the marker's; shard 1 rerun alone with --resume completes the load with the
// rows of a single load, DAILY_MARKET in key order; a shard arriving afterwards has
// nothing to do. One load covers the concurrent, the stopped and the rerun shard.
func TestShardedLoadStoppedShardRerunAlone(t *testing.T) {
	t.Parallel()
	dsn := testpg.NewDB(t)
	db := open(t, dsn)
	shard := func(i int) loader.Options {
		return loader.Options{Scale: testdb.Scale, Seed: testdb.Seed, Workers: 1, ToolVersion: "test",
			Shard: loader.Shard{Index: i, Count: 3}, ScaleGiven: true, SeedGiven: true}
	}
	notes := make([]string, 3)
	errs := make([]error, 3)
	stopped, ctx, hit := stopAt(shard(1), "trade")
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sdb := open(t, dsn) // a process of its own
			o, c := shard(i), context.Background()
			if i == 1 {
				o, c = stopped, ctx
			}
			var st loader.Stats
			st, errs[i] = loader.Load(c, sdb, o, nil)
			notes[i] = st.Note
		}()
	}
	wg.Wait()
	if errs[1] == nil || !hit() {
		t.Fatalf("shard 1/3 was not stopped after its first trade segment: %v", errs[1])
	}
	for _, i := range []int{0, 2} {
		if errs[i] != nil {
			t.Fatalf("shard %d/3: %v", i, errs[i])
		}
		if !strings.Contains(notes[i], "still to come") {
			t.Errorf("shard %d/3 with shard 1 unfinished: %q", i, notes[i])
		}
	}
	other := shard(1)
	other.Seed = 99
	if _, err := loader.Load(context.Background(), db, other, nil); !errors.Is(err, loader.ErrMarkerMismatch) ||
		!strings.Contains(err.Error(), fmt.Sprintf("seed %d", testdb.Seed)) {
		t.Errorf("a shard with another seed: %v", err)
	}
	again := shard(1)
	again.Resume = true
	st, err := loader.Load(context.Background(), db, again, nil)
	if err != nil || st.Note != "" {
		t.Fatalf("shard 1/3 rerun: %q, %v", st.Note, err)
	}
	if st.Resumed == 0 {
		t.Error("the rerun kept none of its segments")
	}
	sameContent(t, db)
	checkClean(t, db)
	var corr float64
	if err := db.QueryRow(context.Background(), "SELECT correlation FROM pg_stats WHERE tablename = 'daily_market' AND attname = 'dm_s_symb'").Scan(&corr); err != nil || corr < 0.99 {
		t.Errorf("daily_market's dm_s_symb correlation %.3f (%v), want about 1", corr, err)
	}
	if st, err := loader.Load(context.Background(), db, shard(2), nil); err != nil || !strings.Contains(st.Note, "complete") {
		t.Errorf("a shard after the load: %q, %v", st.Note, err)
	}
}
