// Package ci holds the CI examples (GitHub Actions, compose, a baseline result)
// and the test that keeps them in step with the tool.
package ci

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/figures"
)

func readYAML(t *testing.T, name string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return doc
}

// get walks a YAML document by map keys.
func get(t *testing.T, doc any, path ...string) any {
	t.Helper()
	cur := doc
	for _, k := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			t.Fatalf("%s: not a mapping at %q", strings.Join(path, "."), k)
		}
		if cur, ok = m[k]; !ok {
			t.Fatalf("missing key %s", strings.Join(path, "."))
		}
	}
	return cur
}

func TestGitHubActions(t *testing.T) {
	doc := readYAML(t, "github-actions.yml")
	jobs, ok := get(t, doc, "jobs").(map[string]any)
	if !ok || len(jobs) == 0 {
		t.Fatal("no jobs")
	}
	sqlserver, ok := jobs["sqlserver"]
	if !ok {
		t.Fatal("no sqlserver job")
	}
	checkSQLServerJob(t, sqlserver)
	delete(jobs, "sqlserver")
	for name, job := range jobs {
		img, _ := get(t, job, "services", "postgres", "image").(string)
		if !strings.HasPrefix(img, "postgres:") {
			t.Errorf("job %s: services.postgres.image = %q", name, img)
		}
		steps, _ := get(t, job, "steps").([]any)
		var runs []string
		uploadsReport := false
		for _, s := range steps {
			m, _ := s.(map[string]any)
			if r, ok := m["run"].(string); ok {
				runs = append(runs, r)
			}
			if uses, _ := m["uses"].(string); strings.HasPrefix(uses, "actions/upload-artifact") {
				with, _ := m["with"].(map[string]any)
				p, _ := with["path"].(string)
				uploadsReport = strings.Contains(p, "report.html")
			}
		}
		all := strings.Join(runs, "\n")
		for _, want := range []string{
			"CGO_ENABLED=0 go build", "./cmd/brokerbench",
			"load --db \"$DB_URL\" --customers 1000 --trade-days 5",
			"run --db \"$DB_URL\" --users 2,4 --step 30s --warmup 5s", "--out new.json",
			"compare examples/ci/baseline.json new.json", `--fail-if "tps<-10%"`, `--fail-if "p95>+20%"`, "--html report.html",
		} {
			if !strings.Contains(all, want) {
				t.Errorf("job %s: no step runs %q", name, want)
			}
		}
		if !uploadsReport {
			t.Errorf("job %s: report.html is not uploaded", name)
		}
		checkGates(t, all)
	}
}

// checkSQLServerJob: SQL Server as a service container, the DSN the suites read, and
// a step that runs them.
func checkSQLServerJob(t *testing.T, job any) {
	t.Helper()
	img, _ := get(t, job, "services", "mssql", "image").(string)
	if !strings.HasPrefix(img, "mcr.microsoft.com/mssql/server:") {
		t.Errorf("sqlserver job: services.mssql.image = %q", img)
	}
	dsn, _ := get(t, job, "env", "BROKERBENCH_SQLSERVER_DSN").(string)
	if !strings.HasPrefix(dsn, "sqlserver://") || strings.Contains(dsn, "sa:bench") {
		t.Errorf("sqlserver job: BROKERBENCH_SQLSERVER_DSN = %q (want sqlserver:// with the password from a secret)", dsn)
	}
	steps, _ := get(t, job, "steps").([]any)
	var runs []string
	for _, s := range steps {
		if r, ok := s.(map[string]any)["run"].(string); ok {
			runs = append(runs, r)
		}
	}
	if all := strings.Join(runs, "\n"); !strings.Contains(all, "go test") || !strings.Contains(all, "./txn/") {
		t.Errorf("sqlserver job runs no integration suite: %q", all)
	}
}

func TestCompose(t *testing.T) {
	doc := readYAML(t, "compose.yaml")
	if img, _ := get(t, doc, "services", "postgres", "image").(string); !strings.HasPrefix(img, "postgres:") {
		t.Errorf("services.postgres.image = %q", img)
	}
	bb := get(t, doc, "services", "brokerbench")
	if df, _ := get(t, bb, "build", "dockerfile").(string); df != "Dockerfile" {
		t.Errorf("brokerbench is not built from the Dockerfile: %q", df)
	}
	if ctx, _ := get(t, bb, "build", "context").(string); filepath.Clean(ctx) != filepath.Join("..", "..") {
		t.Errorf("build context %q is not the repository root", ctx)
	}
	cmd, _ := get(t, bb, "command").([]any)
	script := ""
	for _, c := range cmd {
		s, _ := c.(string)
		script += s
	}
	for _, want := range []string{"brokerbench load", "brokerbench run", "brokerbench compare baseline.json", "--fail-if"} {
		if !strings.Contains(script, want) {
			t.Errorf("compose command lacks %q", want)
		}
	}
	checkGates(t, script)
}

// checkGates parses every --fail-if expression the examples use, so an example can
// never show a gate the tool rejects.
func checkGates(t *testing.T, text string) {
	t.Helper()
	re := regexp.MustCompile(`--fail-if "([^"]+)"`)
	found := re.FindAllStringSubmatch(text, -1)
	if len(found) == 0 {
		t.Error("no --fail-if gate")
	}
	for _, m := range found {
		if _, err := compare.ParseGate(m[1]); err != nil {
			t.Errorf("example gate: %v", err)
		}
	}
}

func TestDockerfile(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	df := string(data)
	if n := len(regexp.MustCompile(`(?m)^FROM `).FindAllString(df, -1)); n < 2 {
		t.Errorf("%d FROM lines, want a multi-stage build", n)
	}
	if !regexp.MustCompile(`(?m)^RUN CGO_ENABLED=0 go build .*\./cmd/brokerbench`).MatchString(df) {
		t.Error("no RUN CGO_ENABLED=0 go build ... ./cmd/brokerbench")
	}
	if !regexp.MustCompile(`(?m)^USER `).MatchString(df) || regexp.MustCompile(`(?m)^USER (root|0)\s*$`).MatchString(df) {
		t.Error("the image must run as a non-root USER")
	}
}

func TestBaselineReads(t *testing.T) {
	r, err := results.Read("baseline.json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.ToLower(r.Label), "example") {
		t.Errorf("label %q does not say it is an example baseline", r.Label)
	}
	if len(r.Steps) != 2 || r.Steps[0].Users != 2 || r.Steps[1].Users != 4 {
		t.Fatalf("baseline steps do not match the example ramp --users 2,4")
	}
	for _, st := range r.Steps {
		if o := figures.StepOverall(&st); !o.HasPercentiles || st.TPS <= 0 {
			t.Errorf("step %d: no histograms or no tps", st.Users)
		}
	}
	if strings.Contains(string(mustRead(t, "baseline.json")), ":bench@") {
		t.Error("baseline holds a DSN password")
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
