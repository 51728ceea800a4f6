package load

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/brokerbench/brokerbench/internal/bytesize"
	"github.com/brokerbench/brokerbench/loader"
	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/session"
)

// Options are the options of one load, as `brokerbench load` takes them from its flags.
type Options struct {
	Customers int64
	TradeDays int
	Size      string // --size: a target size on disk; picks Customers and TradeDays
	Seed      uint64
	Workers   int
	Drop      bool
	Resume    bool
	Shard     string // --shard I/N; shard is its parsed form
	shard     loader.Shard
	// ScaleSet: --customers or --trade-days was given, which --size replaces;
	// SeedSet: --seed was given. A resumed load refuses them when they disagree with
	// the unfinished load's marker.
	ScaleSet, SeedSet bool
}

// parseShard reads --shard I/N.
func parseShard(s string) (loader.Shard, error) {
	i, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	idx, err1 := strconv.Atoi(i)
	cnt, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || cnt < 1 || cnt > maxShards || idx < 0 || idx >= cnt {
		return loader.Shard{}, fmt.Errorf("--shard takes I/N with 0 <= I < N <= %d (e.g. 0/3, the first of three), got %q", maxShards, s)
	}
	return loader.Shard{Index: idx, Count: cnt}, nil
}

// maxShards bounds --shard's N: more shards than that would each hold a connection
// per table for a few segments.
const maxShards = 256

// Validate returns usage errors (exit 2) for values the workload cannot use.
func (o *Options) Validate() error {
	if o.Customers <= 0 || o.Customers%schema.LoadUnit != 0 {
		return session.Usagef("--customers must be a positive multiple of %d, got %d", schema.LoadUnit, o.Customers)
	}
	if o.TradeDays < schema.MinTradeDays || o.TradeDays > schema.MaxTradeDays {
		return session.Usagef("--trade-days must be %d to %d (fewer leave some transactions without time windows; TPC-E loads %d), got %d",
			schema.MinTradeDays, schema.MaxTradeDays, schema.MaxTradeDays, o.TradeDays)
	}
	if o.Size != "" {
		if o.ScaleSet {
			return session.Usagef("--size picks customers and trade days: give either --size or --customers/--trade-days")
		}
		n, err := bytesize.Parse(o.Size)
		if err != nil {
			return session.Usagef("--size: %v", err)
		}
		if n == 0 {
			return session.Usagef("--size: want a size above 0, e.g. 50GB")
		}
		if strings.Trim(o.Size, "0123456789. ") == "" {
			// Bytes are a memory size's unit, never a database's: 50 is 50GB forgotten.
			return session.Usagef("--size %s: give a unit, e.g. %sGB", o.Size, strings.TrimSpace(o.Size))
		}
	}
	if o.Workers < 1 {
		return session.Usagef("--workers must be at least 1, got %d", o.Workers)
	}
	if o.Resume && o.Drop {
		return session.Usagef("--resume continues the unfinished load and --drop starts over: give one of them")
	}
	if o.Shard != "" {
		sh, err := parseShard(o.Shard)
		if err != nil {
			return session.Usagef("%v", err)
		}
		if sh.Count > 1 && o.Drop {
			return session.Usagef("--drop with --shard would let one shard drop what another loads: drop the schema first (brokerbench schema drop)")
		}
		o.shard = sh
	}
	if o.Seed > math.MaxInt64 {
		return session.Usagef("--seed must be below 2^63, got %d", o.Seed)
	}
	return nil
}
