package testmdb

// Templates: a database built once per test process and copied into each test's own
// database. MariaDB has no CREATE DATABASE ... TEMPLATE, and copying rows (CREATE
// TABLE ... LIKE, INSERT ... SELECT) costs about what the load did, as it rebuilds
// every index row by row. InnoDB's transportable tablespaces copy files instead: the
// template's tables are exported once (FLUSH TABLES ... FOR EXPORT writes each
// table's .cfg beside its quiesced .ibd, and both are copied into a folder of the
// server's), and a copy creates the tables from their SHOW CREATE text, discards
// their empty tablespaces, puts the exported files in their place and imports them.

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/mdbmanaged"
)

// BuildFunc fills the database at dsn with a template's contents: tables and
// sequences (routines, views and triggers are not copied).
type BuildFunc func(ctx context.Context, dsn string) error

// template is one key's exported tables, made at the first FromTemplate of the process.
type template struct {
	once    sync.Once
	dir     string   // the exported .ibd and .cfg files
	objects []object // the template's tables and sequences, as SHOW CREATE gives them
	err     error
}

type object struct {
	name     string
	sequence bool
	ddl      string
}

var templates struct {
	mu sync.Mutex
	m  map[string]*template
}

// FromTemplate returns the URL of a fresh database, dropped when the test ends, holding
// a copy of the template named key: its tables (rows, indexes, foreign keys) and
// sequences. build fills the template once per test process; the key (lower-case
// letters, digits and underscores: it names a database and a folder) names what its
// contents depend on, so a different load gets a template of its own.
func FromTemplate(t testing.TB, key string, build BuildFunc) string {
	t.Helper()
	if key == "" || strings.Trim(key, keyChars) != "" {
		t.Fatalf("MariaDB template key %q: only lower-case letters, digits and underscores", key)
	}
	s := Server(t)
	templates.mu.Lock()
	if templates.m == nil {
		templates.m = map[string]*template{}
	}
	tp := templates.m[key]
	if tp == nil {
		tp = &template{}
		templates.m[key] = tp
	}
	templates.mu.Unlock()
	ctx := context.Background()
	tp.once.Do(func() {
		start := time.Now()
		if tp.err = tp.make(ctx, s, key, build); tp.err == nil {
			t.Logf("built MariaDB template %s in %s", key, time.Since(start).Round(time.Millisecond))
		}
	})
	if tp.err != nil {
		t.Fatalf("MariaDB template %s: %v", key, tp.err)
	}
	name := newDatabase(t, s)
	start := time.Now()
	if err := tp.copyInto(ctx, s, name); err != nil {
		t.Fatalf("copy MariaDB template %s: %v", key, err)
	}
	t.Logf("copied MariaDB template %s in %s", key, time.Since(start).Round(time.Millisecond))
	return s.URL(name)
}

// make builds the template in a database of its own, exports its tables into a folder
// of the server's and drops the database: copies come from the files.
func (tp *template) make(ctx context.Context, s *mdbmanaged.Server, key string, build BuildFunc) error {
	name := "bbtmpl_" + key
	admin, err := database.Open(ctx, s.URL(mdbmanaged.Database), database.Options{MaxConns: 1})
	if err != nil {
		return err
	}
	defer admin.Close()
	for _, q := range []string{"DROP DATABASE IF EXISTS " + name, "CREATE DATABASE " + name} {
		if _, err := admin.Exec(ctx, q); err != nil {
			return err
		}
	}
	defer func() { _, _ = admin.Exec(context.WithoutCancel(ctx), "DROP DATABASE IF EXISTS "+name) }()
	if err := build(ctx, s.URL(name)); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	// One connection: FLUSH TABLES ... FOR EXPORT holds until UNLOCK TABLES on it.
	db, err := database.Open(ctx, s.URL(name), database.Options{MaxConns: 1})
	if err != nil {
		return err
	}
	defer db.Close()
	if tp.objects, err = schemaObjects(ctx, db); err != nil {
		return err
	}
	tp.dir = filepath.Join(s.Dir, "templates", key)
	if err := os.MkdirAll(tp.dir, 0o700); err != nil {
		return err
	}
	return exportTables(ctx, db, tp.objects, filepath.Join(s.DataDir, name), tp.dir)
}

// schemaObjects lists the database's tables and sequences with their DDL.
func schemaObjects(ctx context.Context, db database.DB) ([]object, error) {
	rows, err := db.Query(ctx, `SELECT table_name, table_type FROM information_schema.tables
WHERE table_schema = DATABASE() ORDER BY table_name`)
	if err != nil {
		return nil, err
	}
	var objs []object
	for rows.Next() {
		var o object
		var kind string
		if err := rows.Scan(&o.name, &kind); err != nil {
			rows.Close()
			return nil, err
		}
		o.sequence = kind == "SEQUENCE"
		objs = append(objs, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i, o := range objs {
		show := "SHOW CREATE TABLE "
		if o.sequence {
			show = "SHOW CREATE SEQUENCE "
		}
		var name string
		if err := db.QueryRow(ctx, show+quote(o.name)).Scan(&name, &objs[i].ddl); err != nil {
			return nil, fmt.Errorf("%s%s: %w", show, o.name, err)
		}
	}
	return objs, nil
}

// exportTables quiesces the tables and copies their files from the database's folder
// in the server's data directory to dir.
func exportTables(ctx context.Context, db database.DB, objs []object, from, dir string) error {
	var names []string
	for _, o := range tables(objs) {
		names = append(names, quote(o.name))
	}
	if _, err := db.Exec(ctx, "FLUSH TABLES "+strings.Join(names, ", ")+" FOR EXPORT"); err != nil {
		return err
	}
	defer func() { _, _ = db.Exec(context.WithoutCancel(ctx), "UNLOCK TABLES") }()
	return copyTableFiles(tables(objs), from, dir)
}

// copyInto makes the template's tables and sequences in database name and imports the
// exported files into its tables.
func (tp *template) copyInto(ctx context.Context, s *mdbmanaged.Server, name string) error {
	// One connection: foreign_key_checks is the session's, and off it lets a table
	// name a parent made after it and lets a referenced table's tablespace be discarded.
	db, err := database.Open(ctx, s.URL(name), database.Options{MaxConns: 1})
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Exec(ctx, "SET SESSION foreign_key_checks = 0"); err != nil {
		return err
	}
	for _, o := range tp.objects {
		if _, err := db.Exec(ctx, o.ddl); err != nil {
			return fmt.Errorf("create %s: %w", o.name, err)
		}
		if !o.sequence {
			if _, err := db.Exec(ctx, "ALTER TABLE "+quote(o.name)+" DISCARD TABLESPACE"); err != nil {
				return fmt.Errorf("discard %s: %w", o.name, err)
			}
		}
	}
	if err := copyTableFiles(tables(tp.objects), tp.dir, filepath.Join(s.DataDir, name)); err != nil {
		return err
	}
	for _, o := range tables(tp.objects) {
		if _, err := db.Exec(ctx, "ALTER TABLE "+quote(o.name)+" IMPORT TABLESPACE"); err != nil {
			return fmt.Errorf("import %s: %w", o.name, err)
		}
	}
	// An imported table has no persistent statistics (the optimizer takes it for a few
	// rows and plans accordingly); the load analyzed its tables, and so does the copy.
	mt, ok := db.(database.Maintainer)
	if !ok {
		return fmt.Errorf("%s cannot analyze tables", db.Name())
	}
	for _, o := range tables(tp.objects) {
		if err := mt.Analyze(ctx, quote(o.name)); err != nil {
			return err
		}
	}
	return nil
}

func tables(objs []object) []object {
	var ts []object
	for _, o := range objs {
		if !o.sequence {
			ts = append(ts, o)
		}
	}
	return ts
}

// copyTableFiles copies each table's .ibd and .cfg from one folder to another, keeping
// their owner (as root, the server's user) and mode.
func copyTableFiles(ts []object, from, to string) error {
	for _, o := range ts {
		for _, ext := range []string{".ibd", ".cfg"} {
			if err := copyFile(filepath.Join(from, o.name+ext), filepath.Join(to, o.name+ext)); err != nil {
				return err
			}
		}
	}
	return nil
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	st, err := src.Stat()
	if err != nil {
		return err
	}
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, st.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	if err := dst.Close(); err != nil {
		return err
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && os.Geteuid() == 0 {
		return os.Lchown(to, int(sys.Uid), int(sys.Gid))
	}
	return nil
}

// quote quotes an identifier.
func quote(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

// keyChars are what a key is made of: it names the template's database and folder.
const keyChars = "abcdefghijklmnopqrstuvwxyz0123456789_"
