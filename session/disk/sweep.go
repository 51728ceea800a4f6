package disk

import (
	"regexp"
	"slices"
	"strings"

	"github.com/brokerbench/brokerbench/diskprofile"
	"github.com/brokerbench/brokerbench/session"
)

// blockSizeForm is a request size fio reads: bytes, or a number of KiB or MiB
// ("512", "4k", "1m").
var blockSizeForm = regexp.MustCompile(`^[1-9][0-9]*[km]?$`)

// parseBlockSizes reads --block-sizes; nil when no sweep was asked for.
func parseBlockSizes(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []string
	for _, f := range strings.Split(s, ",") {
		bs := strings.ToLower(strings.TrimSpace(f))
		if !blockSizeForm.MatchString(bs) {
			return nil, session.Usagef("--block-sizes %q: want request sizes such as 512,4k,64k,1m, comma-separated", s)
		}
		if slices.Contains(out, bs) {
			return nil, session.Usagef("--block-sizes %q: %s repeats", s, bs)
		}
		out = append(out, bs)
	}
	return out, nil
}

// sweepProfiles runs every profile at each block size, in the order given, so each
// profile's sweep is one run of steps (profile@size at each depth); without sizes
// the profiles are as they were.
func sweepProfiles(ps []diskprofile.Profile, sizes []string) []diskprofile.Profile {
	if len(sizes) == 0 {
		return ps
	}
	var out []diskprofile.Profile
	for _, p := range ps {
		for _, bs := range sizes {
			out = append(out, p.WithBlockSize(bs))
		}
	}
	return out
}
