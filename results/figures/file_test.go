package figures

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/runfixture"
	"github.com/brokerbench/brokerbench/results"
)

func TestWriteReadRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.json")
	want := runfixture.SampleRun("H810 RAID10", []int{50, 100}, 1, 1, 7)
	want.Options = map[string]any{"users": "50,100", "step": "5m"}
	want.Steps[0].Faults = &results.Faults{ConnectionsLost: 1, ByClass: map[string]int64{"connection": 1}}
	if err := results.Write(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := results.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip differs:\n got %+v\nwant %+v", got.Steps[0], want.Steps[0])
	}
	// Overwriting keeps one file and leaves no temporary behind.
	want.Label = "second"
	if err := results.Write(path, want); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("folder holds %d entries after two writes", len(entries))
	}
	if got, _ := results.Read(path); got.Label != "second" {
		t.Fatal("second write not visible")
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", fi.Mode())
	}
}

func TestWriteIntoMissingFolderFails(t *testing.T) {
	err := results.Write(filepath.Join(t.TempDir(), "no", "such", "run.json"), runfixture.SampleRun("x", []int{1}, 1, 1, 1))
	if err == nil || !strings.Contains(err.Error(), "run.json") {
		t.Fatalf("err = %v", err)
	}
}

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name, body string
		want       []string // substrings of the message
		is         error
	}{
		{"empty.json", "  \n", []string{"empty.json", "empty file"}, nil},
		{"syntax.json", "{\n  \"format\": 1,\n  \"steps\": [ }\n", []string{"syntax.json:3:", "invalid JSON"}, nil},
		{"truncated.json", "{\n  \"format\": 1,\n  \"steps\": [", []string{"truncated.json:3:", "unexpected end"}, nil},
		{"noformat.json", `{"steps": []}`, []string{"noformat.json", `no "format" field`}, results.ErrFormat},
		{"newer.json", `{"format": 2, "steps": "changed"}`, []string{"format 2", "reads format 1"}, results.ErrFormat},
		{"stringformat.json", `{"format": "1"}`, []string{`"format" is "1"`}, results.ErrFormat},
		{"type.json", "{\"format\": 1,\n \"steps\": [{\"users\": \"many\"}]}", []string{"type.json:2:", `"steps.users"`}, nil},
		{"array.json", `[1,2]`, []string{"array.json", "not a JSON object"}, results.ErrFormat},
		{"emptyarray.json", `[]`, []string{"not a JSON object"}, results.ErrFormat},
		{"scalar.json", "{\"format\": 1, \"label\": 5}", []string{`"label"`, "a string belongs"}, nil},
		{"negative.json", `{"format": 1, "steps": [{"users": 2, "tps": -5}]}`, []string{`"steps[0].tps" is -5`, "cannot be negative"}, nil},
		{"negusers.json", `{"format": 1, "steps": [{"users": -3}]}`, []string{`"steps[0].users" is -3`}, nil},
		{"negcount.json", `{"format": 1, "steps": [{"users": 1, "transactions": {"Trade-Order": {"count": -1}}}]}`,
			[]string{`"steps[0].transactions.Trade-Order.count" is -1`}, nil},
		{"longlabel.json", `{"format": 1, "label": "` + strings.Repeat("x", results.MaxTextBytes+1) + `"}`, []string{`"label" is 1025 bytes long; at most 1024`}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := results.Read(write(c.name, c.body))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("error %v is not %v", err, c.is)
			}
			var fe *results.FileError
			if !errors.As(err, &fe) {
				t.Errorf("not a *FileError: %T", err)
			}
			// The reader of the file never sees a Go type.
			for _, goish := range []string{"Go value", "struct {", "int64", "float64", "results."} {
				if strings.Contains(err.Error(), goish) {
					t.Errorf("error %q names a Go type (%q)", err, goish)
				}
			}
		})
	}
	_, err := results.Read(filepath.Join(dir, "missing.json"))
	if !errors.Is(err, fs.ErrNotExist) || !strings.HasSuffix(err.Error(), "missing.json: no such file") {
		t.Fatalf("missing file: %v", err)
	}
}

// FuzzParse checks that no input makes Parse (or the figures a report derives from
// a parsed run) panic. Seeds run as a normal test.
func FuzzParse(f *testing.F) {
	good, err := os.ReadFile(filepath.Join("..", "examples", "ci", "baseline.json"))
	if err == nil {
		f.Add(good)
	}
	f.Add([]byte(`{"format":1,"steps":[{"users":5,"tps":1,"transactions":{"Trade-Order":{"count":3,"response_hist":"HISTFAAAAB"}}}]}`))
	f.Add([]byte(`{"format":1}`))
	f.Add([]byte(`{"format":1e400}`))
	f.Add([]byte(`{"format":null}`))
	f.Add([]byte(`{"format":1,"steps":[{"io":{"series":[{}]}}]}`))
	f.Add([]byte("\xff\xfe"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := results.Parse(data)
		if err != nil {
			if r != nil {
				t.Fatal("run and error both returned")
			}
			return
		}
		for i := range r.Steps {
			_ = StepOverall(&r.Steps[i])
		}
	})
}

// TestReadRefusesHugeFile: a file over MaxFileBytes is refused from its size,
// before it is read (a sparse file: nothing is written).
func TestReadRefusesHugeFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "huge.json")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(results.MaxFileBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = results.Read(p)
	if err == nil || !strings.Contains(err.Error(), "the most a result file may be") {
		t.Fatalf("got %v", err)
	}
}

// TestValidateNamesOneField: a step with several negative figures is refused by
// the same field every time (the checks run in a fixed order, not a map's).
func TestValidateNamesOneField(t *testing.T) {
	st := results.Step{Users: 4, TPS: -1, TPSE: -1, Transactions: map[string]results.TxnStats{"B": {Count: -1}, "A": {Errors: -1, AvgMS: -1}}}
	first := ""
	for range 50 {
		err := results.Validate(&results.Run{Steps: []results.Step{st}})
		if err == nil {
			t.Fatal("negative figures accepted")
		}
		if first == "" {
			first = err.Error()
		} else if err.Error() != first {
			t.Fatalf("named %q, then %q", first, err.Error())
		}
	}
	if !strings.Contains(first, `"steps[0].tps"`) {
		t.Errorf("named %q, want the step's tps first", first)
	}
}
