package target

import (
	"context"
	"fmt"

	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/internal/pgmanaged"
	"github.com/brokerbench/brokerbench/session"
)

// needPGData refuses a pg subcommand without --pgdata.
func needPGData(g *session.Globals) error {
	if g.PGData == "" {
		return session.Usagef("--pgdata DIR is required: the folder that holds the cluster")
	}
	return nil
}

// StartKept is `pg start`: it starts the managed cluster in --pgdata, or says it
// already runs, and prints its URL; the cluster stays up for later commands.
func StartKept(ctx context.Context, g *session.Globals) error {
	if err := needPGData(g); err != nil {
		return err
	}
	capBytes, capGiven, err := ParseServerMemory(g.ServerMemory, ManagedPostgres)
	if err != nil {
		return err
	}
	// One an earlier brokerbench started without a password is not attached
	// to: Start converts it.
	if cl, err := pgmanaged.Attach(g.PGData); err == nil && !cl.Unprotected() {
		if err := checkAttachedCap(cl, capBytes, capGiven); err != nil {
			return err
		}
		fmt.Fprintf(g.Stdout, "already running: %s\n", cl.PassfileURL("brokerbench"))
		g.Logf("%s", connectHint(cl))
		return nil
	}
	cl, err := pgmanaged.Start(ctx, pgmanaged.Options{DataDir: g.PGData, Log: g.Logf, MemoryCap: capBytes, KeepMemoryCap: !capGiven})
	if err != nil {
		return err
	}
	if err := ensureDatabase(ctx, cl, "brokerbench"); err != nil {
		return err
	}
	// Scripts read the URL from standard output: it stays one line.
	fmt.Fprintf(g.Stdout, "%s\n", cl.PassfileURL("brokerbench"))
	g.Logf("%s", connectHint(cl))
	return nil
}

// attachPG attaches to the running cluster in --pgdata.
func attachPG(g *session.Globals) (*pgmanaged.Cluster, error) {
	if err := needPGData(g); err != nil {
		return nil, err
	}
	return pgmanaged.Attach(g.PGData)
}

// StopKept is `pg stop`: it stops the cluster in --pgdata; its data stays.
func StopKept(g *session.Globals) error {
	cl, err := attachPG(g)
	if err != nil {
		return err
	}
	return cl.Stop()
}

// KeptStatus is `pg status`: whether the cluster in --pgdata runs, with its URL and
// memory cap.
func KeptStatus(g *session.Globals) error {
	cl, err := attachPG(g)
	if err != nil {
		return err
	}
	if cl.Unprotected() {
		fmt.Fprintf(g.Stdout, "running without a password: %s\n", cl.PassfileURL("brokerbench"))
		g.Logf("%s", UnprotectedWarning(cl))
		return nil
	}
	fmt.Fprintf(g.Stdout, "running: %s\n", cl.PassfileURL("brokerbench"))
	switch {
	case cl.CapLifted():
		g.Logf("server memory capped at %s (cgroup %s), lifted while a load runs", bytesize.Format(cl.MemoryCap), cl.MemoryGroup())
	case cl.MemoryCap > 0:
		g.Logf("server memory capped at %s (cgroup %s)", bytesize.Format(cl.MemoryCap), cl.MemoryGroup())
	}
	return nil
}

// connectHint tells a person how to connect with psql: the password stays in its file.
func connectHint(cl *pgmanaged.Cluster) string {
	return fmt.Sprintf("connect with psql: %s (that file holds the password; only its owner can read it)",
		cl.PsqlCommand("brokerbench"))
}
