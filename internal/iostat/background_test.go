package iostat

import "testing"

// TestPostgresBackgroundWork: a window that holds a CHECKPOINT of freshly written rows
// records it, with the buffers it wrote, from the server's own counters, whichever
// source measures the disks.
func TestPostgresBackgroundWork(t *testing.T) {
	db, info := localPG(t)
	s, err := Open(t.Context(), Options{DB: db, Log: func(string, ...any) {}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a := s.Mark()
	writeHeavyStep(t, db, info.Num, 10000)
	b := s.Mark()
	bg, ok := s.Background(a, b)
	if !ok {
		t.Fatalf("no background figures from %s", s.Source())
	}
	t.Logf("source %s: %+v", s.Source(), bg)
	if bg.Checkpoints < 1 || bg.CheckpointBuffers <= 0 {
		t.Errorf("background %+v: want the CHECKPOINT and the buffers it wrote", bg)
	}
	if bg.AutovacuumS < 0 {
		t.Errorf("autovacuum %v s", bg.AutovacuumS)
	}
}
