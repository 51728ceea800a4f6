package fio

import (
	"fmt"
	"strings"
)

// Option is one fio job option, key=value (Value "" renders the bare key, as fio's
// boolean options such as time_based are written).
type Option struct{ Key, Value string }

func (o Option) String() string {
	if o.Value == "" {
		return o.Key
	}
	return o.Key + "=" + o.Value
}

// PercentileList is the percentile_list of every job brokerbench runs: the
// completion-latency percentiles a disk step records (p50, p95, p99, p99.9).
const PercentileList = "50:95:99:99.9"

// Job is one [section] of a job file.
type Job struct {
	Name    string
	Options []Option
}

// JobFile is what one fio invocation runs: global options and its jobs.
type JobFile struct {
	Global []Option
	Jobs   []Job
	// ReadOnly runs fio with --readonly, which refuses any write or trim: its
	// guard for a target brokerbench may only read (a command-line option; fio
	// rejects it in a job file).
	ReadOnly bool
}

// Render writes the job file in fio's ini format. Names and values with a line break
// or a bracket would change the file's structure, so they are refused.
func (f JobFile) Render() (string, error) {
	var b strings.Builder
	write := func(section string, opts []Option) error {
		if bad(section) || strings.ContainsAny(section, "[]") {
			return fmt.Errorf("fio job name %q: not allowed in a job file", section)
		}
		fmt.Fprintf(&b, "[%s]\n", section)
		for _, o := range opts {
			if o.Key == "" || bad(o.Key) || bad(o.Value) || strings.ContainsAny(o.Key, "=[]") {
				return fmt.Errorf("fio option %q: not allowed in a job file", o.String())
			}
			b.WriteString(o.String() + "\n")
		}
		return nil
	}
	if err := write("global", f.Global); err != nil {
		return "", err
	}
	for _, j := range f.Jobs {
		b.WriteByte('\n')
		if err := write(j.Name, j.Options); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

func bad(s string) bool { return strings.ContainsAny(s, "\n\r\x00") }

// Get returns the last value of key in opts (fio takes the last one), and whether it
// was set.
func Get(opts []Option, key string) (string, bool) {
	v, ok := "", false
	for _, o := range opts {
		if o.Key == key {
			v, ok = o.Value, true
		}
	}
	return v, ok
}
