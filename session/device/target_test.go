package device

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/internal/testkit/testloop"
	"github.com/brokerbench/brokerbench/session"
)

// TestFileTargetOnlyItsOwn: a test file already in the folder (a kept one, or
// someone else's) is refused and left byte for byte as it was; the file brokerbench
// creates is removed at Close, or kept when asked.
func TestFileTargetOnlyItsOwn(t *testing.T) {
	dir := t.TempDir()
	theirs := filepath.Join(dir, TestFileName)
	if err := os.WriteFile(theirs, []byte("someone's data"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenFile(dir, 1<<20, false, false); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("an existing test file: %v", err)
	}
	if b, err := os.ReadFile(theirs); err != nil || string(b) != "someone's data" {
		t.Errorf("the existing file changed: %q, %v", b, err)
	}
	os.Remove(theirs)
	for _, keep := range []bool{false, true} {
		tgt, err := OpenFile(dir, 1<<20, false, keep)
		if err != nil {
			t.Fatal(err)
		}
		if !tgt.Created || tgt.Raw || tgt.Path != theirs || tgt.Size != 1<<20 {
			t.Errorf("target %+v", tgt)
		}
		tgt.Close()
		if _, err := os.Stat(theirs); (err == nil) != keep {
			t.Errorf("keep %v: after Close the test file exists: %v", keep, err == nil)
		}
		os.Remove(theirs)
	}
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var u session.UsageError
	if _, err := OpenFile(notDir, 1<<20, false, false); !errors.As(err, &u) || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("a file as --dir: %v", err)
	}
}

// TestDeviceTargetRefusals: a device holding a file system is written only when the
// flag names it, the refusal says what the writes would destroy, and once allowed
// the warning says it again; a mounted device is refused even with the flag.
func TestDeviceTargetRefusals(t *testing.T) {
	if _, err := exec.LookPath("mkfs.ext4"); err != nil {
		t.Skip("mkfs.ext4 is not installed")
	}
	raw := testloop.NewRaw(t, 16)
	if out, err := exec.Command("mkfs.ext4", "-q", "-F", "-L", "data", raw.Dev).CombinedOutput(); err != nil {
		t.Fatalf("mkfs.ext4: %v: %s", err, out)
	}
	use := Use{Flag: "--device", Writer: "the profiles", Instead: "run only reading profiles"}
	_, err := OpenDevice(use, raw.Dev, 0, true, "")
	var u session.UsageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "a file system (ext4") || !strings.Contains(err.Error(), "pass --allow-device-writes "+raw.Dev) {
		t.Errorf("writes without the flag: %v", err)
	}
	if _, err := OpenDevice(use, raw.Dev, 0, true, "/dev/null"); !errors.As(err, &u) {
		t.Errorf("a flag naming another device: %v", err)
	}
	tgt, err := OpenDevice(use, raw.Dev, 0, true, raw.Dev)
	if err != nil {
		t.Fatal(err)
	}
	var warn bytes.Buffer
	tgt.WarnDestroys(&warn)
	tgt.Close()
	if !tgt.Raw || tgt.Size != 16<<20 || !strings.Contains(warn.String(), "WARNING: --allow-device-writes "+raw.Dev+": it holds a file system (ext4") {
		t.Errorf("allowed writes: size %d, warning %q", tgt.Size, warn.String())
	}
	mounted := testloop.New(t, 32)
	if _, err := OpenDevice(use, mounted.Dev, 0, true, mounted.Dev); err == nil || errors.As(err, &u) || !strings.Contains(err.Error(), "is mounted on "+mounted.Mount) {
		t.Errorf("a mounted device: %v", err)
	}
}
