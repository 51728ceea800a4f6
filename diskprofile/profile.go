package diskprofile

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/brokerbench/brokerbench/internal/fio"
)

// Stream is one fio job of a profile: one access pattern.
type Stream struct {
	// RW is fio's rw: read, write, randread, randwrite, randrw or rw (sequential mix).
	RW string `json:"rw"`
	// ReadPercent is the share of reads of a mixed stream (fio's rwmixread), 0..100;
	// ignored for read-only and write-only streams.
	ReadPercent int `json:"read_percent,omitempty"`
	// RandomPercent, when set (1..99), makes a random stream partly sequential
	// (fio's percentage_random), as Iometer's workstation pattern is.
	RandomPercent int `json:"random_percent,omitempty"`
	// BlockSize is the request size ("8k", or "8k,16k" for reads and writes apart).
	// A sweep varies it (Profile.WithBlockSize).
	BlockSize string `json:"bs,omitempty"`
	// BSSplit is a size mix instead of BlockSize (fio's bssplit, "4k/60:64k/40").
	BSSplit string `json:"bssplit,omitempty"`
	// Depth, when set, fixes the stream's outstanding I/Os whatever the step's (the
	// WAL writes one at a time).
	Depth int `json:"depth,omitempty"`
	// Engine is fio's ioengine; empty means libaio, which keeps the step's depth of
	// direct I/Os in flight. The WAL runs on "sync", one write and its fdatasync at a
	// time, as a database's log writer does.
	Engine string `json:"engine,omitempty"`
	// Options are further fio options; a value "{depth}" is the step's depth.
	Options []string `json:"options,omitempty"`
}

// Profile is one access-pattern profile: a name, what it models and its streams.
type Profile struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Stream
	// Also are further streams run beside the first (the WAL beside a run's data
	// I/O); most profiles have none.
	Also []Stream `json:"also,omitempty"`
	// Source is where the profile came from: "builtin", a file, a run file.
	Source string `json:"-"`
	// ExtraDepth is a depth added to the step list for this profile (the
	// outstanding I/Os a run measured); 0 for none.
	ExtraDepth int `json:"-"`
}

// Streams returns the profile's streams, the first one first.
func (p Profile) Streams() []Stream { return append([]Stream{p.Stream}, p.Also...) }

// WithBlockSize is p with every stream's request size set to bs (and its size mix
// dropped): what a block-size sweep runs. The name says the size.
func (p Profile) WithBlockSize(bs string) Profile {
	q := p
	q.Name = p.Name + "@" + bs
	q.Stream.BlockSize, q.Stream.BSSplit = bs, ""
	q.Also = slices.Clone(p.Also)
	for i := range q.Also {
		q.Also[i].BlockSize, q.Also[i].BSSplit = bs, ""
	}
	return q
}

// BlockSizeLabel is the request size a step records: the first stream's size, or
// "mix" for a size mix.
func (p Profile) BlockSizeLabel() string {
	if p.BSSplit != "" {
		return "mix"
	}
	return p.BlockSize
}

// reads tells whether a stream reads, writes, or both.
func (s Stream) reads() bool  { return s.RW != "write" && s.RW != "randwrite" }
func (s Stream) writes() bool { return s.RW != "read" && s.RW != "randread" }

// readShare is the share of reads (0..100) a stream asks for.
func (s Stream) readShare() float64 {
	switch {
	case !s.writes():
		return 100
	case !s.reads():
		return 0
	}
	return float64(s.ReadPercent)
}

// ReadPercent is the share of reads the profile asks for: its first stream's (the
// others, when paced, are a small part beside it).
func (p Profile) ReadPercent() float64 { return p.Stream.readShare() }

// Writes tells whether any stream of p writes.
func (p Profile) Writes() bool {
	for _, s := range p.Streams() {
		if s.writes() {
			return true
		}
	}
	return false
}

// DepthPlaceholder stands for the step's outstanding I/Os in --list and in result
// files.
const DepthPlaceholder = "{depth}"

// fioOptions returns the fio options of stream s at depth ("{depth}" when depth is
// 0, for display).
func (s Stream) fioOptions(depth int) []fio.Option {
	d := DepthPlaceholder
	if s.Depth > 0 {
		d = strconv.Itoa(s.Depth)
	} else if depth > 0 {
		d = strconv.Itoa(depth)
	}
	opts := []fio.Option{{Key: "rw", Value: s.RW}}
	if s.reads() && s.writes() {
		opts = append(opts, fio.Option{Key: "rwmixread", Value: strconv.Itoa(s.ReadPercent)})
	}
	if s.RandomPercent > 0 {
		opts = append(opts, fio.Option{Key: "percentage_random", Value: strconv.Itoa(s.RandomPercent)})
	}
	if s.BSSplit != "" {
		opts = append(opts, fio.Option{Key: "bssplit", Value: s.BSSplit})
	} else {
		opts = append(opts, fio.Option{Key: "bs", Value: s.BlockSize})
	}
	engine := s.Engine
	if engine == "" {
		engine = "libaio"
	}
	opts = append(opts, fio.Option{Key: "ioengine", Value: engine}, fio.Option{Key: "iodepth", Value: d})
	for _, o := range s.Options {
		k, v, _ := strings.Cut(o, "=")
		opts = append(opts, fio.Option{Key: k, Value: strings.ReplaceAll(v, DepthPlaceholder, d)})
	}
	return opts
}

// Describe lists each stream's fio options as "job: key=value ...", depth shown as
// {depth}: what --list and the result file show.
func (p Profile) Describe() []string {
	var out []string
	for i, s := range p.Streams() {
		parts := make([]string, 0, 8)
		for _, o := range s.fioOptions(0) {
			parts = append(parts, o.String())
		}
		out = append(out, fmt.Sprintf("%s: %s", jobName(p, i), strings.Join(parts, " ")))
	}
	return out
}

func jobName(p Profile, i int) string {
	if i == 0 {
		return p.Name
	}
	return fmt.Sprintf("%s.%d", p.Name, i+1)
}
