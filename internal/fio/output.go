package fio

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Output is the part of fio's --output-format=json (or json+) that brokerbench reads.
// Field names are fio's; times are nanoseconds, as fio 3 reports them.
type Output struct {
	Version string `json:"fio version"`
	Jobs    []JobOutput
	// DiskUtil is fio's own reading of the devices under the jobs' files.
	DiskUtil []DiskUtil `json:"disk_util"`
}

// JobOutput is one job's (or, with group_reporting, one group's) figures.
type JobOutput struct {
	Name  string `json:"jobname"`
	Error int    `json:"error"`
	// RuntimeMS is how long the job ran, ramp time excluded, in milliseconds.
	RuntimeMS int64    `json:"job_runtime"`
	Read      DirStats `json:"read"`
	Write     DirStats `json:"write"`
	Trim      DirStats `json:"trim"`
	Sync      Sync     `json:"sync"`
	// IODepthLevel is the share of time (percent) fio held each number of I/Os in
	// flight, by bucket: "1", "2", "4", ..., ">=64" (a bucket counts depths from its
	// value up to the next one).
	IODepthLevel map[string]float64 `json:"iodepth_level"`
	Options      map[string]string  `json:"job options"`
}

// DirStats are one direction's figures.
type DirStats struct {
	IOBytes  int64   `json:"io_bytes"`
	BWBytes  int64   `json:"bw_bytes"` // per second
	IOPS     float64 `json:"iops"`
	TotalIOs int64   `json:"total_ios"`
	// RuntimeMS is this direction's own runtime.
	RuntimeMS int64 `json:"runtime"`
	// CLat is the completion latency (submission to completion), the device's
	// service time plus queueing in the kernel.
	CLat Latency `json:"clat_ns"`
	// Lat is the total latency (clat plus submission).
	Lat Latency `json:"lat_ns"`
}

// Latency is a latency distribution in nanoseconds.
type Latency struct {
	Min    int64   `json:"min"`
	Max    int64   `json:"max"`
	Mean   float64 `json:"mean"`
	StdDev float64 `json:"stddev"`
	N      int64   `json:"N"`
	// Percentile maps fio's percentile keys ("99.900000") to nanoseconds.
	Percentile map[string]int64 `json:"percentile"`
}

// At returns the latency at percentile p (as listed in percentile_list) in
// nanoseconds, and whether fio reported it.
func (l Latency) At(p float64) (int64, bool) {
	v, ok := l.Percentile[strconv.FormatFloat(p, 'f', 6, 64)]
	return v, ok
}

// Sync is the fsync/fdatasync calls a job issued (fsync=, fdatasync=).
type Sync struct {
	TotalIOs int64   `json:"total_ios"`
	Lat      Latency `json:"lat_ns"`
}

// DiskUtil is fio's reading of one device's counters over the run.
type DiskUtil struct {
	Name     string  `json:"name"`
	ReadIOs  int64   `json:"read_ios"`
	WriteIOs int64   `json:"write_ios"`
	Util     float64 `json:"util"`
}

// ParseOutput decodes fio's JSON. fio may print notices before the JSON document
// (on the same stream), so decoding starts at the first '{'.
func ParseOutput(data []byte) (*Output, error) {
	start := -1
	for i, c := range data {
		if c == '{' {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("fio printed no JSON result")
	}
	var out Output
	if err := json.Unmarshal(data[start:], &out); err != nil {
		return nil, fmt.Errorf("fio's JSON result: %w", err)
	}
	return &out, nil
}
