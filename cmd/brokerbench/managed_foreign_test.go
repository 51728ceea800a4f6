package main

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/brokerbench/brokerbench/internal/managed"
	"github.com/brokerbench/brokerbench/internal/pgmanaged"
	"github.com/brokerbench/brokerbench/internal/testkit/testpg"
)

// TestForeignClusterUntouched: a stopped cluster its owner made with initdb (SCRAM,
// a pg_hba rule of its own, its port in postgresql.conf) is refused by pg start and
// by every command that takes --pgdata, with the line that says how to use it
// anyway, and afterwards every file under it is what it was: content, mode and
// owner. A folder of someone else's files (a root-only 0600 file among them) is
// refused the same way, and nothing in it changes owner. A cluster brokerbench made
// still starts, marked.
func TestForeignClusterUntouched(t *testing.T) {
	t.Parallel()
	bin, err := pgmanaged.FindBinaries()
	if err != nil {
		t.Skip("no PostgreSQL server binaries: ", err)
	}
	base := testpg.ServerDir(t, "bb-foreign-")
	foreign := filepath.Join(base, "foreign")
	initdbAsOwner(t, bin, foreign)
	other := filepath.Join(base, "other")
	if err := os.MkdirAll(filepath.Join(other, "sub"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "sub", "secret"), []byte("root only\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	const clusterRefusal = "holds a PostgreSQL cluster brokerbench did not create; it changes only clusters it made: start it yourself and give --db URL"
	const folderRefusal = "is not empty and holds no cluster brokerbench made"
	out := filepath.Join(base, "out.json")
	for _, tc := range []struct {
		name, dir, refusal string
		args               []string
	}{
		{"pg start", foreign, clusterRefusal, []string{"pg", "start"}},
		{"pg start with a cap", foreign, clusterRefusal, []string{"pg", "start", "--server-memory", "256MiB"}},
		{"quickstart", foreign, clusterRefusal, []string{"quickstart", "--users", "1", "--step", "2s", "--warmup", "1s", "--out", out}},
		{"load", foreign, clusterRefusal, []string{"load", "--customers", "1000", "--trade-days", "5"}},
		{"run", foreign, clusterRefusal, []string{"run", "--users", "1", "--step", "2s", "--warmup", "1s", "--out", out}},
		{"check", foreign, clusterRefusal, []string{"check"}},
		{"pg start on other files", other, folderRefusal, []string{"pg", "start"}},
		{"load on other files", other, folderRefusal, []string{"load", "--customers", "1000", "--trade-days", "5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := snapshotTree(t, tc.dir)
			code, stdout, stderr := runMain(append(tc.args, "--pgdata", tc.dir)...)
			if code != exitRuntime {
				t.Errorf("exit %d, want %d\n%s%s", code, exitRuntime, stdout, stderr)
			}
			// quickstart says its first step before it opens the database: the
			// refusal is the last line, and the only error.
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			last := lines[len(lines)-1]
			if !strings.HasPrefix(last, "brokerbench: ") || !strings.Contains(last, tc.dir+" ") || !strings.Contains(last, tc.refusal) {
				t.Errorf("the refusal does not say %q:\n%s", tc.refusal, stderr)
			}
			if n := strings.Count(stderr, "brokerbench: "); n != 1 {
				t.Errorf("%d error lines, want 1:\n%s", n, stderr)
			}
			if after := snapshotTree(t, tc.dir); after != before {
				t.Errorf("the folder changed:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("a refused command wrote %s", out)
			}
		})
	}

	t.Run("a cluster brokerbench made starts", func(t *testing.T) {
		ours := filepath.Join(base, "ours")
		for i := 0; i < 2; i++ {
			if code, stdout, stderr := runMain("pg", "start", "--pgdata", ours); code != 0 {
				t.Fatalf("pg start %d: exit %d\n%s%s", i+1, code, stdout, stderr)
			}
			if code, _, stderr := runMain("pg", "stop", "--pgdata", ours); code != 0 {
				t.Fatalf("pg stop %d: exit %d\n%s", i+1, code, stderr)
			}
		}
		if ok, err := managed.Marked(ours); !ok {
			t.Errorf("the cluster brokerbench made carries no marker (%v)", err)
		}
	})
}

// initdbAsOwner makes a stopped cluster in dir as its owner would: initdb with a
// password and SCRAM, a pg_hba rule and a port of its own. As root it runs as the
// postgres OS user (initdb refuses root), which then owns the folder.
func initdbAsOwner(t *testing.T, bin, dir string) {
	t.Helper()
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	pwDir, err := os.MkdirTemp("", "bb-foreign-pw-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(pwDir)
	pwFile := filepath.Join(pwDir, "pw")
	if err := os.WriteFile(pwFile, []byte("owner's secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(bin, "initdb"), "-D", dir, "-U", "postgres", "--auth=scram-sha-256", "--pwfile="+pwFile,
		"-E", "UTF8", "--locale=C", "--no-sync")
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Skip("running as root without a postgres OS user to run initdb as")
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		for _, p := range []string{dir, pwDir, pwFile} {
			if err := os.Chown(p, uid, gid); err != nil {
				t.Fatal(err)
			}
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
		cmd.Env = append(os.Environ(), "HOME="+u.HomeDir)
	}
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, b)
	}
	appendTo := func(name, text string) {
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(text); err != nil {
			t.Fatal(err)
		}
	}
	appendTo("postgresql.conf", "port = 55432\nshared_buffers = '32MB'\n")
	appendTo("pg_hba.conf", "host    ownersdb     postgres 10.1.2.3/32   scram-sha-256\n")
}

// snapshotTree lists every entry under dir with its type and mode, owner and
// group, and its content's hash (a link's target): equal snapshots mean nothing
// under dir changed.
func snapshotTree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		st := fi.Sys().(*syscall.Stat_t)
		fmt.Fprintf(&b, "%s %v %d:%d", strings.TrimPrefix(p, dir), fi.Mode(), st.Uid, st.Gid)
		switch {
		case fi.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, " %x", sha256.Sum256(data))
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, " -> %s", target)
		}
		b.WriteByte('\n')
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
