package run

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/iostat"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/session/target"
)

// RepeatOptions are run's --repeat, --repeat-cold and --replace-disturbed: the whole
// plan run several times, one result file each, so compare can judge a change against
// the run-to-run noise of one configuration (docs/result-format.md, "repeat").
type RepeatOptions struct {
	Repeat           int
	Cold             bool
	ReplaceDisturbed int // replace.go
}

func (o RepeatOptions) check(shard string) error {
	switch {
	case o.Repeat < 1:
		return session.Usagef("--repeat must be at least 1, got %d", o.Repeat)
	case o.Repeat > 1 && shard != "":
		return session.Usagef("--repeat cannot be combined with --shard: repeat the sharded run with a new --start-at instead")
	case o.Cold && o.Repeat < 2:
		return session.Usagef("--repeat-cold needs --repeat 2 or more")
	case o.ReplaceDisturbed < 0:
		return session.Usagef("--replace-disturbed must be 0 or more, got %d", o.ReplaceDisturbed)
	case o.ReplaceDisturbed > 0 && o.Repeat < 2:
		return session.Usagef("--replace-disturbed needs --repeat 2 or more")
	}
	return nil
}

// repeatPath is repeat k's result file: run.json → run-r2.json.
func repeatPath(out string, k int) string {
	ext := filepath.Ext(out)
	return fmt.Sprintf("%s-r%d%s", strings.TrimSuffix(out, ext), k, ext)
}

// runRepeats runs the session's plan o.Repeat.Repeat times on tgt: a fresh
// session each time (new pools, a new market emulator, a new driver), the
// managed server restarted first when --repeat-cold asks for a cold cache. A
// disturbed repeat runs again while --replace-disturbed's budget lasts
// (replace.go). An interrupt or a failed repeat ends the series; the files
// written so far, set-aside ones included, stay.
func runRepeats(ctx context.Context, g *session.Globals, o Options, lw *liveWriter, tgt *target.Target) error {
	if o.RepeatOpts.Cold && tgt.Managed == nil {
		return session.Usagef("--repeat-cold restarts the managed PostgreSQL; a server given with --db must be restarted by hand between runs")
	}
	base := o.Out
	if base == "" {
		base = "brokerbench-" + time.Now().Format("20060102-150405") + ".json"
	}
	rep := &replacer{budget: o.RepeatOpts.ReplaceDisturbed}
	for k := 1; k <= o.RepeatOpts.Repeat; k++ {
		f := repeatFiles{base: base, k: k, n: o.RepeatOpts.Repeat, out: repeatPath(base, k)}
		if o.CaptureIO != "" {
			f.capture = filepath.Join(o.CaptureIO, fmt.Sprintf("r%d", k))
		}
		for {
			r, err := runOneRepeat(ctx, g, o, lw, tgt, f)
			if err != nil {
				return err
			}
			again, err := rep.afterRepeat(lw.logf, f, r)
			if err != nil {
				return err
			}
			if !again {
				break
			}
			f.setAsideBefore++
		}
	}
	return nil
}

// runOneRepeat runs repeat f.k once into f's files and returns its result: after a
// restart when --repeat-cold asks for one, after a checkpoint always, a replacement
// as any repeat.
func runOneRepeat(ctx context.Context, g *session.Globals, o Options, lw *liveWriter, tgt *target.Target, f repeatFiles) (*results.Run, error) {
	k, n := f.k, f.n
	ro := o
	ro.Out, ro.CaptureIO = f.out, f.capture
	s, err := newRunSession(g, ro, lw)
	if err != nil {
		return nil, err
	}
	s.repeat = &results.Repeat{Index: k, Count: n, Replaced: f.setAsideBefore}
	if (k > 1 || f.setAsideBefore > 0) && o.RepeatOpts.Cold {
		lw.logf("repeat %d of %d: restarting the managed PostgreSQL for a cold buffer cache", k, n)
		if err := tgt.Managed.Restart(ctx); err != nil {
			return nil, fmt.Errorf("repeat %d of %d: restart the managed PostgreSQL: %w", k, n, err)
		}
	}
	checkpointBeforeRepeat(ctx, tgt, lw.logf, k, n)
	lw.logf("repeat %d of %d: results to %s", k, n, ro.Out)
	res, err := s.run(ctx, tgt)
	if err != nil {
		return nil, fmt.Errorf("repeat %d of %d: %w", k, n, err)
	}
	if res == nil {
		return nil, nil
	}
	return res.Run, nil
}

// checkpointBeforeRepeat writes the server's dirty pages out before repeat k (a
// CHECKPOINT, on PostgreSQL and SQL Server), so every repeat starts the same distance
// from the last checkpoint: a window that a timed checkpoint falls into reads a fifth
// apart from one it does not (docs/host.md §3.5), and the checkpoint timer starts again
// here, so a repeat shorter than checkpoint_timeout holds none of the timed ones. A
// CHECKPOINT writes data that is already committed and changes none of it. A server
// that refuses it (no pg_checkpoint role) is said in one line and the repeat runs.
func checkpointBeforeRepeat(ctx context.Context, tgt *target.Target, logf func(string, ...any), k, n int) {
	db, err := database.Open(ctx, tgt.DSN, database.Options{MaxConns: 1, AppName: "brokerbench checkpoint"})
	if err != nil {
		logf("repeat %d of %d: no checkpoint before it: %v", k, n, err)
		return
	}
	defer db.Close()
	e, err := database.Of(db)
	if err != nil || e.CheckpointSQL == "" {
		return // no statement forces a full checkpoint (MariaDB and MySQL flush their pages by their own rules)
	}
	if _, err := db.Exec(ctx, e.CheckpointSQL); err != nil {
		logf("repeat %d of %d: the server refused a checkpoint before it (%v); its window may hold a checkpoint the others do not", k, n, err)
		return
	}
	logf("repeat %d of %d: checkpoint before it, so each repeat starts as far from the last checkpoint", k, n)
}

// systemOf is the run's record of the storage under the database: the sampler's
// description when it measures the directories on this host, else a note (the
// database's settings are recorded either way).
func systemOf(sampler *iostat.Sampler) *results.System {
	if sampler != nil {
		if sys := sampler.System(); sys != nil {
			return sys
		}
	}
	return &results.System{Note: "the storage stack is not described: the database's directories are not on this host (or not readable); its settings are recorded"}
}
