package quickstart

import (
	"context"
	"errors"
	"fmt"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/internal/mdbmanaged"
	"github.com/brokerbench/brokerbench/internal/pgmanaged"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/session/target"
)

// capFor is the cap quickstart puts on its managed server once the database
// is loaded: half the database, so it is about twice the memory and most reads go to
// the disks; at least the managed server's minimum, and at least what the run's conns
// backends need beside shared_buffers (a tighter cap had the OOM killer end a backend
// at the end of quickstart's 16-user step).
func capFor(dbBytes int64, conns int) int64 {
	return max(dbBytes/2, pgmanaged.MinMemoryCap, target.CapNeeded(conns))
}

// capServer restarts quickstart's managed server with its cap: the one
// given, or half the loaded database. A cap that was not asked for but cannot be
// applied (no memory controller, not root) is a warning: quickstart still runs, and
// its summary then says how much of the reads the disks served.
func capServer(ctx context.Context, tgt *target.Target, asked int64, given bool, conns int, say func(string, ...any)) error {
	if !tgt.IsManaged() {
		return nil // a cap for a server we do not manage was refused before the load
	}
	capBytes := asked
	if !given {
		db, err := database.Open(ctx, tgt.DSN, database.Options{MaxConns: 1, AppName: "brokerbench quickstart"})
		if err != nil {
			return err
		}
		size, err := database.DatabaseBytes(ctx, db)
		db.Close()
		if err != nil {
			return err
		}
		capBytes = capFor(size, conns)
		if tgt.MariaDB != nil {
			capBytes = max(size/2, mdbmanaged.CapFor(conns))
		}
		say("capping the server's memory at %s for a %s database, so most reads go to the disks (--server-memory 0 turns this off)",
			bytesize.Format(capBytes), bytesize.Format(size))
	}
	if capBytes == tgt.MemoryCap() {
		return nil
	}
	err := tgt.RestartWithMemoryCap(ctx, capBytes, given)
	if err != nil && !given && (errors.Is(err, pgmanaged.ErrMemoryCap) || errors.Is(err, pgmanaged.ErrCapTooSmall)) {
		say("cannot cap the server's memory (%v); running uncapped, so the database will likely be read from memory", err)
		return nil
	}
	return err
}

// diskReadSummary is quickstart's closing line on how much of the reads came from
// the disks.
func diskReadSummary(r *results.Run) string {
	s := figures.SummarizeDiskReads(r)
	if !s.HasReadsPerTxn && !s.HasHitRatio {
		return "Reads from disk: unknown (no storage figures for this run)."
	}
	var parts []string
	if s.HasReadsPerTxn {
		parts = append(parts, fmt.Sprintf("%.1f disk reads per transaction", s.ReadsPerTxn))
	}
	if s.HasHitRatio {
		parts = append(parts, fmt.Sprintf("%.1f %% of page reads from the disk or the OS cache (cache hit ratio %.1f %%)", (1-s.HitRatio)*100, s.HitRatio*100))
	}
	line := "Reads from disk: " + joinAnd(parts)
	if d := r.Database; d.MemoryCapBytes > 0 && d.SizeBytes > 0 {
		line += fmt.Sprintf(", with the server's memory capped at %s for a %s database", bytesize.Format(d.MemoryCapBytes), bytesize.Format(d.SizeBytes))
	}
	line += "."
	if s.MemoryResidentSteps > 0 {
		line += fmt.Sprintf(" %d of %d steps were memory-resident: the disks served almost no reads; %s.", s.MemoryResidentSteps, s.Steps, figures.MemoryResidentAdvice)
	}
	return line
}

func joinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return parts[0] + " and " + parts[1]
}
