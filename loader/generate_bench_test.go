package loader

import (
	"context"
	"testing"

	"github.com/brokerbench/brokerbench/database/postgres"
)

// BenchmarkGenerate is the client's share of a load: every job of one load unit at the
// fingerprint scale generated and encoded in PostgreSQL's binary COPY format, the
// chunks dropped, on one goroutine. Profile it with
// `go test ./loader -run - -bench Generate -cpuprofile cpu.out`.
func BenchmarkGenerate(b *testing.B) {
	ks := newKeyspace(fingerprintScale, DefaultSeed)
	jobs := plan(ks)
	cols := map[string]int{}
	for _, t := range loadedTables() {
		cols[t.Name] = len(t.Columns)
	}
	ctx := context.Background()
	var bytes int64
	for i := 0; i < b.N; i++ {
		bytes = 0
		for _, j := range jobs {
			enc := make([]rowEncoder, len(j.tables))
			for k, name := range j.tables {
				enc[k] = encodedRows{postgres.Engine.RowFormat.NewEncoder(cols[name], chunkBytes)}
			}
			e := newEmitter(enc)
			e.ship = func(_ context.Context, _ int, c chunk) error {
				bytes += int64(len(c.data))
				return nil
			}
			if err := j.run(ctx, e); err != nil {
				b.Fatal(err)
			}
			if err := e.flush(ctx); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.SetBytes(bytes)
}
