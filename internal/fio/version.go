package fio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// MinVersion is the oldest fio whose JSON this package reads: 3.x reports
// completion latency in nanoseconds (clat_ns) and the job's own runtime
// (job_runtime), which older versions do not.
var MinVersion = Version{Major: 3, Minor: 5}

// InstallHint is what a user without fio is told to do.
const InstallHint = "install fio (Debian/Ubuntu: apt-get install fio; RHEL/Fedora: dnf install fio; macOS: brew install fio) or name it with --fio PATH"

// ErrNotFound is wrapped by Check when the fio binary cannot be found.
var ErrNotFound = errors.New("fio not found")

// Version is fio's release, "fio-3.33" → {3, 33}.
type Version struct{ Major, Minor int }

func (v Version) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

// Less reports whether v is older than o.
func (v Version) Less(o Version) bool {
	return v.Major < o.Major || v.Major == o.Major && v.Minor < o.Minor
}

// ParseVersion reads `fio --version` output ("fio-3.33", "fio-3.36-12-gabcdef").
func ParseVersion(s string) (Version, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimPrefix(t, "fio-")
	parts := strings.SplitN(t, ".", 2)
	if len(parts) != 2 {
		return Version{}, fmt.Errorf("cannot read fio's version from %q", s)
	}
	minor := parts[1]
	if i := strings.IndexFunc(minor, func(r rune) bool { return r < '0' || r > '9' }); i >= 0 {
		minor = minor[:i]
	}
	ma, err1 := strconv.Atoi(parts[0])
	mi, err2 := strconv.Atoi(minor)
	if err1 != nil || err2 != nil {
		return Version{}, fmt.Errorf("cannot read fio's version from %q", s)
	}
	return Version{ma, mi}, nil
}

// Binary is one fio executable, checked.
type Binary struct {
	Path    string
	Version Version
}

// Check finds fio (name is a path or a name looked up in PATH; "" means "fio"),
// runs `fio --version` and refuses a version older than MinVersion. A missing
// binary is ErrNotFound with InstallHint in its message.
func Check(ctx context.Context, name string) (*Binary, error) {
	if name == "" {
		name = "fio"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("%w (%s): %s", ErrNotFound, name, InstallHint)
	}
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, path, "--version")
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s --version: %v", path, err)
	}
	v, err := ParseVersion(out.String())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if v.Less(MinVersion) {
		return nil, fmt.Errorf("%s is fio %s; brokerbench needs fio %s or newer", path, v, MinVersion)
	}
	return &Binary{Path: path, Version: v}, nil
}
