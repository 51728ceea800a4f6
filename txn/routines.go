package txn

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/database"
)

// The server routines (run --frames server, docs/workload.md §13): each transaction's
// frames as one routine per database, kept as SQL files in routines/ and installed by
// load, or by run on a database loaded before they existed.

//go:embed routines/*.sql
var routineFiles embed.FS

// RoutinesVersion numbers the routine set. Raise it with every change to a routine
// file: a run upgrades a database whose installed set is older and refuses one whose
// set is newer. TestRoutineSourcesPinned pins each file's digest to it, so a changed
// file without a new version fails the tests.
const RoutinesVersion = 3

// batchSeparator is the line between two statements of a routine file; the installer
// sends each statement on its own.
const batchSeparator = "-- batch"

// routineSet is what one database needs for server frames: the file of its routines
// (routines/<database name>.sql) and how the database installs and calls them (its
// Engine's RoutineDialect).
type routineSet struct {
	db   database.Name
	file string
	*database.RoutineDialect
}

// routineSets lists the registered databases that have server routines.
func routineSets() []routineSet {
	var out []routineSet
	for _, e := range database.Engines() {
		if s, ok := routineSetFor(e.Name); ok {
			out = append(out, s)
		}
	}
	return out
}

const (
	routinesMarkerRead   = `SELECT version, source_sha256 FROM bb_routines`
	routinesMarkerDelete = `DELETE FROM bb_routines`
	routinesMarkerInsert = `INSERT INTO bb_routines (version, source_sha256, installed_at) VALUES ($1, $2, $3)`
)

// routineSetFor returns the routine set of database n: its engine must say how to
// call routines and the workload must have its file.
func routineSetFor(n database.Name) (routineSet, bool) {
	e, err := database.Lookup(n)
	if err != nil || e.Routines == nil {
		return routineSet{}, false
	}
	file := "routines/" + string(n) + ".sql"
	if _, err := fs.Stat(routineFiles, file); err != nil {
		return routineSet{}, false
	}
	return routineSet{db: n, file: file, RoutineDialect: e.Routines}, true
}

// routineDefinition finds each routine a routine file creates (PostgreSQL's and
// MariaDB's CREATE OR REPLACE, T-SQL's CREATE after a DROP), with its parameters: the
// list ends before RETURNS (a function), AS (T-SQL) or BEGIN (a MariaDB procedure's
// body).
var routineDefinition = regexp.MustCompile(`(?s)CREATE (?:OR REPLACE )?(?:FUNCTION|PROCEDURE) (bb_[a-z_]+)\s*\(?(.*?)\)?\s+(?:RETURNS|AS|BEGIN)\b`)

// DropRoutines removes the server routines and their version marker, if any, from
// a database that has a routine set (schema drop).
func DropRoutines(ctx context.Context, db database.DB) error {
	s, ok := routineSetFor(db.Name())
	if !ok {
		return nil
	}
	src, _, err := routineSource(s)
	if err != nil {
		return err
	}
	for _, m := range routineDefinition.FindAllStringSubmatch(src, -1) {
		if _, err := db.Exec(ctx, fmt.Sprintf(s.DropRoutine, m[1])); err != nil {
			return fmt.Errorf("drop routine %s: %w", m[1], err)
		}
	}
	if _, err := db.Exec(ctx, s.DropMarker); err != nil {
		return fmt.Errorf("drop the routines' marker: %w", err)
	}
	return nil
}

// routineSource returns the text of a set's file and its SHA-256 digest in hex.
func routineSource(s routineSet) (string, string, error) {
	b, err := routineFiles.ReadFile(s.file)
	if err != nil {
		return "", "", err
	}
	sum := sha256.Sum256(b)
	return string(b), hex.EncodeToString(sum[:]), nil
}

// routineBatches splits a routine file into its statements.
func routineBatches(src string) []string {
	var out []string
	for _, part := range strings.Split(src, "\n"+batchSeparator+"\n") {
		if strings.TrimSpace(stripComments(part)) != "" {
			out = append(out, strings.TrimSpace(part))
		}
	}
	return out
}

// stripComments drops whole-line "--" comments, to tell an empty batch from one with
// a statement.
func stripComments(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "--") {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// FramesUnavailable says why database n has no server frames, or "" when it has.
func FramesUnavailable(n database.Name) string {
	if _, ok := routineSetFor(n); ok {
		return ""
	}
	return fmt.Sprintf("server frames are not available on %s yet (run --frames client)", n)
}

// FramesUnavailableOn says why pool db has no server frames, or "" when it has: its
// database has none (FramesUnavailable), or its server has no sequences (MySQL), where
// the routines take Trade-Order's ids (NEXT VALUE FOR in the routine); the pool hands
// them out itself there (database.IDsOf), which a routine cannot ask for.
func FramesUnavailableOn(db database.DB) string {
	if msg := FramesUnavailable(db.Name()); msg != "" {
		return msg
	}
	if database.IDsOf(db) != nil {
		return fmt.Sprintf("server frames need sequences for the trade ids, and the server at %s has none (MySQL; docs/mysql.md §9): run --frames client", db.Target())
	}
	return ""
}

// InstalledRoutines reads the routine set's version marker: version 0 and digest ""
// when none is installed.
func InstalledRoutines(ctx context.Context, db database.DB) (version int, digest string, err error) {
	s, ok := routineSetFor(db.Name())
	if !ok {
		return 0, "", fmt.Errorf("%s", FramesUnavailable(db.Name()))
	}
	e, err := database.Of(db)
	if err != nil {
		return 0, "", err
	}
	var n int64
	if err := db.QueryRow(ctx, e.SQL(s.HasMarker)).Scan(&n); err != nil {
		return 0, "", fmt.Errorf("reading the server routines' version: %w", err)
	}
	if n == 0 {
		return 0, "", nil
	}
	err = db.QueryRow(ctx, e.SQL(routinesMarkerRead)).Scan(&version, &digest)
	if err == database.ErrNoRows {
		return 0, "", nil
	}
	if err != nil {
		return 0, "", fmt.Errorf("reading the server routines' version: %w", err)
	}
	return version, digest, nil
}

// InstallRoutines installs (or replaces) the server routines and their version marker
// in one transaction.
func InstallRoutines(ctx context.Context, db database.DB, now time.Time) error {
	if msg := FramesUnavailableOn(db); msg != "" {
		return errors.New(msg)
	}
	s, _ := routineSetFor(db.Name())
	e, err := database.Of(db)
	if err != nil {
		return err
	}
	src, digest, err := routineSource(s)
	if err != nil {
		return err
	}
	err = db.InTx(ctx, database.ReadCommitted, func(tx database.Tx) error {
		if _, err := tx.Exec(ctx, s.LockInstall); err != nil {
			return err
		}
		if s.UnlockInstall != "" {
			// On the same connection, also after a failed batch: the pool keeps it.
			defer tx.Exec(ctx, s.UnlockInstall) // a lost session frees it too
		}
		for _, b := range routineBatches(src) {
			if _, err := tx.Exec(ctx, b); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, e.SQL(routinesMarkerDelete)); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, e.SQL(routinesMarkerInsert), RoutinesVersion, digest, now.UTC())
		return err
	})
	if err != nil {
		return fmt.Errorf("installing the server routines (version %d): %w", RoutinesVersion, err)
	}
	return nil
}

// EnsureRoutines makes the database's server routines this build's: it installs them
// on a database loaded without them or by an older version and replaces a set whose
// source differs; it refuses a set newer than this build's, which an older binary
// must not overwrite. It returns what it did, for the log: "current", "installed",
// "upgraded from version N" or "replaced".
func EnsureRoutines(ctx context.Context, db database.DB, now time.Time) (string, error) {
	v, digest, err := InstalledRoutines(ctx, db)
	if err != nil {
		return "", err
	}
	s, _ := routineSetFor(db.Name())
	_, ours, err := routineSource(s)
	if err != nil {
		return "", err
	}
	did := ""
	switch {
	case v > RoutinesVersion:
		return "", fmt.Errorf("the database's server routines are version %d, newer than this brokerbench's %d: run the brokerbench that loaded it, or --frames client", v, RoutinesVersion)
	case v == RoutinesVersion && digest == ours:
		return "current", nil
	case digest == "": // no marker: loaded without routines
		did = "installed"
	case v == RoutinesVersion:
		did = "replaced"
	default:
		did = fmt.Sprintf("upgraded from version %d", v)
	}
	if err := InstallRoutines(ctx, db, now); err != nil {
		return "", err
	}
	return did, nil
}
