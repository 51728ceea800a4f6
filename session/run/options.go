package run

import (
	"net"
	"strconv"
	"time"

	"github.com/brokerbench/brokerbench/driver"
	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session"
	"github.com/brokerbench/brokerbench/txn"
)

// Options are the options of one run: `brokerbench run` fills them from its
// flags and --config, quickstart from its own choices. A run session reads them and
// never changes them; what it derives (the emulator's size, the result file's name)
// it keeps itself.
type Options struct {
	Users       string
	Step        time.Duration
	Warmup      time.Duration
	Think       time.Duration
	Rate        float64
	Pace        string // "nominal" or ""
	Connections int

	EmulatorWorkers int // 0: the session derives the emulator's size from the plan

	Seed        uint64
	Label       string
	Tags        []string
	Out         string
	MetricsAddr string
	Config      string
	NoCheck     bool
	IODevices   []string
	IONodeExp   string
	IOInterval  time.Duration
	CaptureIO   string        // --capture-io DIR (capture.go)
	LimitOpts   LimitOptions  // --limit, --find-max and its bounds (limits.go)
	Shard       string        // --shard I/N (shard.go)
	StartAt     string        // --start-at, RFC 3339 (shard.go)
	RepeatOpts  RepeatOptions // --repeat, --repeat-cold (repeat.go)
	Settle      string        // --settle: auto, off or a budget (settle.go)
	Frames      string        // --frames client|server (txn.ParseFrames)
	LostGrace   time.Duration

	// Record is the result file's record of the options as used, with the global
	// options and the target as shown (cmd: every run flag under its name, in its
	// format). nil records only the global options.
	Record func(used Options, g *session.Globals, shownDB string) map[string]any
}

// paceNominal is --pace's one value (driver.NominalThink).
const paceNominal = "nominal"

// plan checks the options and turns them into the driver's plan (usage errors).
func (o Options) plan() (driver.Plan, error) {
	users, err := driver.ParseUsers(o.Users)
	if err != nil {
		return driver.Plan{}, session.UsageError{Err: err}
	}
	p := driver.Plan{Users: users, Step: o.Step, Warmup: o.Warmup}
	if err := p.Validate(); err != nil {
		return p, session.UsageError{Err: err}
	}
	switch {
	case o.Rate < 0:
		return p, session.Usagef("--rate must not be negative, got %g", o.Rate)
	case o.Think < 0:
		return p, session.Usagef("--think must not be negative, got %s", o.Think)
	case o.Connections < 0:
		return p, session.Usagef("--connections must not be negative, got %d", o.Connections)
	case o.EmulatorWorkers < 0:
		return p, session.Usagef("--emulator-workers must not be negative, got %d", o.EmulatorWorkers)
	case len(o.Label) > results.MaxTextBytes:
		return p, session.Usagef("--label is %d bytes long; at most %d", len(o.Label), results.MaxTextBytes)
	case o.LostGrace <= 0:
		return p, session.Usagef("--reconnect-grace must be positive, got %s", o.LostGrace)
	case o.IOInterval <= 0:
		return p, session.Usagef("--io-interval must be positive, got %s", o.IOInterval)
	case o.Pace != "" && o.Pace != paceNominal:
		return p, session.Usagef("--pace takes %q, got %q", paceNominal, o.Pace)
	case o.Pace == paceNominal && (o.Think > 0 || o.Rate > 0 || o.LimitOpts.FindMax):
		return p, session.Usagef("--pace nominal sets the think time itself: give it without --think, --rate and --find-max")
	}
	if o.CaptureIO != "" {
		if len(o.IODevices) > 0 || o.IONodeExp != "" {
			return p, session.Usagef("--capture-io captures the disks under the database's directories, as the storage sampler finds them: leave out --io-device and --io-node-exporter")
		}
		if err := checkCaptureDir(o.CaptureIO); err != nil {
			return p, err
		}
	}
	if _, err := txn.ParseFrames(o.Frames); err != nil {
		return p, session.Usagef("--%v", err)
	}
	if err := checkListenAddr(o.MetricsAddr); err != nil {
		return p, err
	}
	if err := o.LimitOpts.check(o.Rate, p.Users); err != nil {
		return p, err
	}
	if err := checkResultFileBound(p, o.LimitOpts); err != nil {
		return p, err
	}
	if err := session.RefuseOutputOverInput([]session.Output{{Flag: "--out", Path: o.Out}}, []string{o.Config}); err != nil {
		return p, err
	}
	if err := o.RepeatOpts.check(o.Shard); err != nil {
		return p, err
	}
	return p, nil
}

// ioDisabled: "--io-device none" turns storage sampling off.
func (o Options) ioDisabled() bool {
	return len(o.IODevices) == 1 && o.IODevices[0] == "none"
}

// checkListenAddr refuses a --metrics-addr that can never be bound before anything
// starts: a typo must not cost a connection or a managed server's start first.
func checkListenAddr(addr string) error {
	if addr == "" {
		return nil
	}
	_, port, err := net.SplitHostPort(metricsListenAddr(addr))
	if err != nil {
		return session.Usagef("--metrics-addr %q: want HOST:PORT or :PORT", addr)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return session.Usagef("--metrics-addr %q: port %q is not a number from 0 to 65535", addr, port)
	}
	return nil
}
