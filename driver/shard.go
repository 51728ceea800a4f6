package driver

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/txn"
)

// Shard is one part of a sharded run (run --shard I/N): several drivers, each on its
// own machine, drive one database together, and their result files are merged. Shard
// I drives its share of every step's users and its own slice of the customer space,
// with input streams of its own. The zero value, like {0, 1}, is an unsharded run.
//
// Index is 0-based so a Kubernetes Indexed Job's completion index is Index directly.
type Shard struct {
	Index, Count int
}

// ParseShard reads "I/N" with 0 <= I < N.
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	idx, err1 := strconv.Atoi(strings.TrimSpace(i))
	cnt, err2 := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil || cnt < 1 || idx < 0 || idx >= cnt || cnt > MaxUsers {
		return Shard{}, fmt.Errorf("--shard %q: want I/N with N >= 1 and 0 <= I < N (I is 0-based: a Kubernetes Indexed Job's completion index)", s)
	}
	return Shard{Index: idx, Count: cnt}, nil
}

// Sharded is true for a shard of a run of more than one shard.
func (s Shard) Sharded() bool { return s.Count > 1 }

func (s Shard) count() int { return max(s.Count, 1) }

// Users is the shard's share of a step of users users: users/N, one more for the
// first users%N shards, so the shards' users add up to users exactly. A share may be
// 0 (fewer users than shards): the shard idles through the step.
func (s Shard) Users(users int) int {
	n := s.count()
	u := users / n
	if s.Index < users%n {
		u++
	}
	return u
}

// Customers is the shard's slice of the customer space. With at least as many load
// units as shards each shard gets a contiguous block of whole load units (their sizes
// differ by at most one), so shards do not contend for the same customers' rows more
// than one driver's users would; with fewer load units than shards the customers are
// cut into contiguous ranges (sizes differ by at most one customer), which share load
// units and so the tier's hot rows. The zero range (the whole space) when unsharded.
func (s Shard) Customers(sc schema.Scale) txn.CustomerRange {
	if !s.Sharded() {
		return txn.CustomerRange{}
	}
	n := int64(s.Count)
	i := int64(s.Index)
	if lus := sc.LoadUnits(); lus >= n {
		return txn.CustomerRange{From: i * lus / n * schema.LoadUnit, To: (i + 1) * lus / n * schema.LoadUnit}
	}
	c := sc.Customers
	return txn.CustomerRange{From: i * c / n, To: (i + 1) * c / n}
}

// CustomerCount is how many customers the shard drives: all of them unsharded.
func (s Shard) CustomerCount(sc schema.Scale) int64 {
	if r := s.Customers(sc); r.Count() > 0 {
		return r.Count()
	}
	return sc.Customers
}

// Seed is the seed of the shard's input streams (users, decks, emulator, timer): a
// pure function of the run's seed and the shard's index, so every user's inputs are
// a pure function of (seed, shard, user). Shard 0 keeps the run's seed, so shard 0
// of 1 draws exactly what an unsharded run draws.
func (s Shard) Seed(seed uint64) uint64 {
	if s.Index == 0 {
		return seed
	}
	return schema.Mix2(seed^0x7368617264, uint64(s.Index)) // "shard"
}

// runsOnce is true for the shard that does the run's once-only work: Trade-Cleanup
// before the first step and Data-Maintenance once a minute (shard 0).
func (s Shard) runsOnce() bool { return s.Index == 0 }
