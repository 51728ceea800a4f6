package study

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestShippedStudyFilesParse: the example study files and the one docs/study.md
// shows are study files as Parse reads them (every key known, every workload of
// one kind), so a user who copies them starts from something that works.
func TestShippedStudyFilesParse(t *testing.T) {
	texts := map[string]string{}
	examples, err := filepath.Glob("../../examples/study/*.yaml")
	if err != nil || len(examples) == 0 {
		t.Fatalf("no example study files: %v", err)
	}
	for _, p := range examples {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		texts[p] = string(b)
	}
	doc, err := os.ReadFile("../../docs/study.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	if len(blocks) == 0 {
		t.Fatal("docs/study.md shows no study file")
	}
	for i, b := range blocks {
		texts["docs/study.md block "+string(rune('1'+i))] = b[1]
	}
	for name, text := range texts {
		f, err := Parse([]byte(text))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(f.Systems) < 2 || len(f.Workloads) == 0 {
			t.Errorf("%s: %d systems, %d workloads", name, len(f.Systems), len(f.Workloads))
		}
		for _, w := range f.Workloads {
			if w.Kind == "" || w.Name == "" {
				t.Errorf("%s: workload %+v", name, w)
			}
		}
	}
}
