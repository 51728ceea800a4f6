package main

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/brokerbench/brokerbench/session"
	"github.com/spf13/pflag"
)

// Every numeric flag of every command is checked here, once the command line and
// any --config file are in: NaN and the infinities parse as floats, and a value far
// beyond anything meaningful (--rate 1e308, --workers 100000000, --step 100000h) is
// a mistake that must not start a run or be recorded in a result file. Each
// command's own checks (negative, zero, combinations) come after this one. The
// ranges are documented in docs/faults.md.

// Maxima of numbers and durations no flag names in flagMax.
const (
	maxFloatFlag    = 1e9
	maxIntFlag      = 1_000_000_000
	maxDurationFlag = 7 * 24 * time.Hour
)

// flagMax holds the maxima of flags whose sense sets a tighter one.
var flagMax = map[string]float64{
	"rate":        1e6,       // transaction starts a second, the whole run's
	"growth":      100,       // --find-max's factor
	"resolution":  100,       // percent
	"workers":     1024,      // generator goroutines; more only costs memory
	"connections": 100_000,   // the users' pool
	"max-steps":   10_000,    // --find-max's probes
	"customers":   1_000_000, // TPC-E-like scale: far beyond any disk

	"emulator-workers": 10_000, // one connection each; its old name --mee-workers shares the value
}

// checkNumericFlags refuses a numeric flag of fs that is not finite or is out of
// range: a usage error naming the flag and its range.
func checkNumericFlags(fs *pflag.FlagSet) error {
	var err error
	fs.VisitAll(func(f *pflag.Flag) {
		if err == nil {
			err = checkNumericFlag(f)
		}
	})
	return err
}

func checkNumericFlag(f *pflag.Flag) error {
	typ := f.Value.Type()
	var values []string
	if sv, ok := f.Value.(pflag.SliceValue); ok && strings.HasSuffix(typ, "Slice") {
		values, typ = sv.GetSlice(), strings.TrimSuffix(typ, "Slice")
	} else {
		values = []string{f.Value.String()}
	}
	for _, s := range values {
		switch typ {
		case "float64", "float32":
			v, perr := strconv.ParseFloat(s, 64)
			limit := flagLimit(f.Name, maxFloatFlag)
			if perr != nil || math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > limit {
				return usagef("--%s %s: want a finite number of at most %g", f.Name, s, limit)
			}
		case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32":
			v, perr := strconv.ParseFloat(s, 64)
			limit := flagLimit(f.Name, maxIntFlag)
			if perr != nil || math.Abs(v) > limit {
				return usagef("--%s %s: want at most %d", f.Name, s, int64(limit))
			}
		case "duration":
			d, perr := time.ParseDuration(s)
			if perr != nil || d > maxDurationFlag || d < -maxDurationFlag {
				return usagef("--%s %s: want a duration of at most %s", f.Name, s, session.ShortDuration(maxDurationFlag))
			}
		}
	}
	return nil
}

func flagLimit(name string, def float64) float64 {
	if m, ok := flagMax[name]; ok {
		return m
	}
	return def
}
