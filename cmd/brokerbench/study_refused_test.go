package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStudyFileMistakesRefused: a study file with a mistake is refused before
// anything runs: exit 2, one line that names what is wrong, no study folder made
// and nothing written in the systems' folders. Every case is otherwise a valid
// study, so the mistake alone is what is refused.
func TestStudyFileMistakesRefused(t *testing.T) {
	t.Parallel()
	needFioBinary(t)
	base, a, b := twoSystemFolders(t)
	trace, _ := writeTrace(t, 20)
	good := `name: s
out: s
systems:
  - {name: a, dir: ` + a + `}
  - {name: b, dir: ` + b + `}
workloads:
  - name: profiles
    disk: {profile: [database], depths: "1", size: 4MiB, ramp: 0s, measure: 1s}
  - name: replay
    replay: {trace: ` + trace + `, depth: 1}
`
	cases := []struct {
		name, file, want string
	}{
		{"unknown top-level key", good + "repeat: 3\n", `line 11: unknown key "repeat"`},
		{"unknown system key", strings.Replace(good, "dir: "+a, "dri: "+a, 1), `unknown key "dri"`},
		{"unknown disk option", strings.Replace(good, "ramp: 0s", "rampup: 0s", 1), `workload "profiles" (line 7): unknown disk option "rampup"`},
		{"bad depth", strings.Replace(good, `depths: "1"`, `depths: "0"`, 1), `--depths "0"`},
		{"bad duration", strings.Replace(good, "measure: 1s", "measure: soon", 1), "measure"},
		{"unknown profile", strings.Replace(good, "[database]", "[databse]", 1), "databse"},
		{"an option the study sets", strings.Replace(good, "depth: 1}", "depth: 1, out: x.json}", 1), "the study sets out itself"},
		{"two kinds in one workload", strings.Replace(good, "    replay: {", "    disk: {}\n    replay: {", 1), "has both"},
		{"no kind", strings.Replace(good, "    replay: {trace: "+trace+", depth: 1}\n", "", 1), `workload "replay": say what it runs`},
		{"missing trace", strings.Replace(good, "trace: "+trace, "trace: "+filepath.Join(base, "none"), 1), "on system a"},
		{"same system twice", strings.Replace(good, "name: b,", "name: a,", 1), `system "a" is named twice`},
		{"one system", strings.Replace(good, "  - {name: b, dir: "+b+"}\n", "", 1), "two or more"},
		{"two systems in one folder", strings.Replace(good, "dir: "+b, "dir: "+a, 1), "systems a and b both live in"},
		{"no such folder", strings.Replace(good, "dir: "+b, "dir: "+filepath.Join(base, "nope"), 1), "not a folder"},
		{"baseline not a system", good + "baseline: c\n", `baseline "c"`},
		{"bad order", good + "order: alphabetical\n", `order "alphabetical"`},
		{"bad repeats", good + "repeats: many\n", `repeats "many"`},
		{"target without figures", good + "repeats: {target: 5%}\n", "needs the figures"},
		{"unknown target figure", good + "repeats: {target: 5%, figures: [tpx]}\n", `figure "tpx"`},
		{"run without a database", strings.Replace(strings.Replace(good, "workloads:\n", "workloads:\n  - name: oltp\n    run: {users: \"2\"}\n", 1),
			"dir: "+b, "device: /dev/null", 1), "an OLTP run needs a database"},
		{"bad users", strings.Replace(good, "workloads:\n", "workloads:\n  - name: oltp\n    run: {users: \"0\"}\n", 1), `workload "oltp"`},
		{"system setting in a workload", strings.Replace(good, "workloads:\n", "workloads:\n  - name: oltp\n    run: {users: \"2\", server-memory: 1GB}\n", 1), "server-memory: a system's setting"},
		{"capture of no run workload", strings.Replace(good, "trace: "+trace, "capture: profiles", 1), `capture "profiles": want the name of a run workload listed before`},
		{"trace and capture", strings.Replace(good, "trace: "+trace, "trace: "+trace+", capture: oltp", 1), "not both"},
		{"not YAML", "systems: [\n", "line"},
		{"empty", "", "empty study file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "plan.yaml")
			if err := os.WriteFile(file, []byte(c.file), 0o644); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := runMain("study", file)
			if code != exitUsage || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("exit %d, want %d and one line with %q:\n%s%s", code, exitUsage, c.want, stdout, stderr)
			}
			if strings.Contains(stderr, "study.") || strings.Contains(stderr, "map[") {
				t.Errorf("a Go type in the error: %s", stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, "s")); err == nil {
				t.Errorf("the study folder was made")
			}
			for _, d := range []string{a, b} {
				if es, _ := os.ReadDir(d); len(es) > 0 {
					t.Errorf("%s was written to: %v", d, es)
				}
			}
		})
	}
}

// TestStudyNeverShowsAPassword: a system's database URL is shown without its
// password in the plan, and in a refusal, and never reaches the study folder.
func TestStudyNeverShowsAPassword(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "plan.yaml")
	text := `name: s
out: s
systems:
  - {name: a, db: "postgres://bench:hunter2secret@127.0.0.1:1/a", io-node-exporter: "http://u:hunter2secret@127.0.0.1:1/metrics"}
  - {name: b, db: "postgres://bench:hunter2secret@127.0.0.1:1/b"}
workloads:
  - name: oltp
    run: {users: "2", step: 5s, warmup: 1s}
`
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runMain("study", file, "--dry-run")
	if code != 0 || !strings.Contains(stdout, "database postgres://bench:xxxxx@127.0.0.1:1/a") {
		t.Errorf("dry run: exit %d, want the URL shown without its password:\n%s%s", code, stdout, stderr)
	}
	bad := strings.Replace(text, `users: "2"`, `users: "0"`, 1)
	if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	code2, stdout2, stderr2 := runMain("study", file)
	for _, out := range []string{stdout, stderr, stdout2, stderr2} {
		if strings.Contains(out, "hunter2secret") {
			t.Errorf("the password is shown:\n%s", out)
		}
	}
	if code2 != exitUsage {
		t.Errorf("a bad users list: exit %d, want %d", code2, exitUsage)
	}
}

// twoSystemFolders are a temporary folder and two empty folders in it, a and b,
// for two systems of a study.
func twoSystemFolders(t *testing.T) (base, a, b string) {
	t.Helper()
	base = t.TempDir()
	a, b = filepath.Join(base, "a"), filepath.Join(base, "b")
	for _, d := range []string{a, b} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return base, a, b
}
