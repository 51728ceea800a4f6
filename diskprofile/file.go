package diskprofile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
)

// allowedOptions are the fio options a profile file may add. Everything that names
// a file, a size or a region, runs a command or writes a log is left out: a profile
// decides how the I/O looks, never where it goes (brokerbench disk writes only
// inside its test file).
var allowedOptions = []string{
	"bsrange", "blockalign", "buffer_compress_percentage", "buffer_compress_chunk", "dedupe_percentage",
	"end_fsync", "fdatasync", "fsync", "fsync_on_close", "iodepth_batch_submit", "iodepth_batch",
	"iodepth_batch_complete_min", "iodepth_batch_complete_max", "iodepth_low", "percentage_random",
	"random_distribution", "random_generator", "rate", "rate_iops", "rate_process", "refill_buffers",
	"rwmixwrite", "scramble_buffers", "sync", "thinktime", "thinktime_blocks", "thinktime_spin",
	"zero_buffers", "hipri", "fixedbufs", "registerfiles", "sqthread_poll",
}

var (
	nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	rwOK   = []string{"read", "write", "randread", "randwrite", "randrw", "rw", "readwrite"}
	engOK  = []string{"", "libaio", "io_uring", "sync", "psync", "pvsync", "pvsync2", "posixaio"}
)

// LoadFile reads profiles from a JSON file: one profile object or an array of
// them, in the form --list --json prints (docs/disk-profiles.md). Every profile is
// checked; a name that repeats a builtin one is refused, so a file cannot redefine
// what "database" means in someone else's result file.
func LoadFile(path string) ([]Profile, error) {
	data, err := readProfileFile(path)
	if err != nil {
		return nil, err
	}
	data = bytes.TrimSpace(data)
	var ps []Profile
	dec := func(v any) error {
		d := json.NewDecoder(bytes.NewReader(data))
		d.DisallowUnknownFields()
		return d.Decode(v)
	}
	if len(data) > 0 && data[0] == '[' {
		err = dec(&ps)
	} else {
		var p Profile
		err = dec(&p)
		ps = []Profile{p}
	}
	if err != nil {
		return nil, fmt.Errorf("profile file %s: %v", path, err)
	}
	for i := range ps {
		ps[i].Source = path
		if err := ps[i].Validate(); err != nil {
			return nil, fmt.Errorf("profile file %s: %w", path, err)
		}
		for _, b := range Builtin {
			if b.Name == ps[i].Name {
				return nil, fmt.Errorf("profile file %s: %q is a builtin profile; give yours another name", path, b.Name)
			}
		}
	}
	return ps, nil
}

// MaxFileBytes bounds a profile file: a few hundred profiles, far more than anyone
// writes, and /dev/zero or a wrong file is refused at once instead of filling memory.
const MaxFileBytes = 1 << 20

// readProfileFile reads path, refusing one past MaxFileBytes before holding it.
func readProfileFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("profile file: %w", err)
	}
	defer f.Close()
	tooBig := fmt.Errorf("profile file %s: larger than %d KiB, the most a profile file may be; is it the right file?", path, MaxFileBytes>>10)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > MaxFileBytes {
		return nil, tooBig
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("profile file %s: %w", path, err)
	}
	if len(data) > MaxFileBytes {
		return nil, tooBig
	}
	return data, nil
}

// Validate checks a profile's definition: a name, and streams fio can run that
// stay inside the target.
func (p Profile) Validate() error {
	if !nameRE.MatchString(p.Name) {
		return fmt.Errorf("profile name %q: use lower-case letters, digits and '-'", p.Name)
	}
	for i, s := range p.Streams() {
		where := fmt.Sprintf("profile %s, stream %d", p.Name, i+1)
		if !slices.Contains(rwOK, s.RW) {
			return fmt.Errorf("%s: rw %q is not one of %s", where, s.RW, strings.Join(rwOK, ", "))
		}
		if s.ReadPercent < 0 || s.ReadPercent > 100 || s.RandomPercent < 0 || s.RandomPercent > 100 {
			return fmt.Errorf("%s: read_percent and random_percent are 0..100", where)
		}
		if (s.BlockSize == "") == (s.BSSplit == "") {
			return fmt.Errorf("%s: give bs or bssplit, one of them", where)
		}
		if s.Depth < 0 || s.Depth > 4096 {
			return fmt.Errorf("%s: depth %d is not 0..4096", where, s.Depth)
		}
		if !slices.Contains(engOK, s.Engine) {
			return fmt.Errorf("%s: engine %q is not one of %s", where, s.Engine, strings.Join(engOK[1:], ", "))
		}
		for _, o := range s.Options {
			k, _, _ := strings.Cut(o, "=")
			if !slices.Contains(allowedOptions, strings.TrimSpace(k)) {
				return fmt.Errorf("%s: fio option %q is not allowed in a profile (allowed: %s)", where, k, strings.Join(allowedOptions, ", "))
			}
			if strings.ContainsAny(o, "\n\r\x00") {
				return fmt.Errorf("%s: fio option %q holds a line break", where, o)
			}
		}
		for _, v := range []string{s.BlockSize, s.BSSplit} {
			if strings.ContainsAny(v, "\n\r\x00 ") {
				return fmt.Errorf("%s: %q is not a block size", where, v)
			}
		}
	}
	return nil
}
