package session

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRefuseOutputOverInput: an output that is an input under another name (a hard
// link, a path with ./) is refused as a usage mistake; standard output and a
// distinct file are not.
func TestRefuseOutputOverInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.json")
	if err := os.WriteFile(in, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Link(in, link); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{link, filepath.Join(dir, ".", "in.json")} {
		err := RefuseOutputOverInput([]Output{{"--out", out}}, []string{in})
		var u UsageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), "--out "+out+" is also an input") {
			t.Errorf("--out %s over its input: %v", out, err)
		}
	}
	if err := RefuseOutputOverInput([]Output{{"--csv", "-"}, {"--out", filepath.Join(dir, "new.json")}}, []string{in}); err != nil {
		t.Errorf("distinct outputs refused: %v", err)
	}
}

// TestReadBoundedStopsAtTheLimit: a file that never ends is refused once it passes
// the bound, and a missing one names its flag and the reason once.
func TestReadBoundedStopsAtTheLimit(t *testing.T) {
	_, err := ReadBounded("--config", "/dev/zero", 4<<10)
	if err == nil || !strings.Contains(err.Error(), "larger than 4 KiB") {
		t.Errorf("/dev/zero: %v", err)
	}
	missing := filepath.Join(t.TempDir(), "none.json")
	_, err = ReadBounded("--config", missing, 4<<10)
	if err == nil || err.Error() != "--config "+missing+": no such file or directory" {
		t.Errorf("a missing file: %v", err)
	}
}
