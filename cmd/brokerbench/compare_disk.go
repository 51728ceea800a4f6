package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/report"
	"github.com/brokerbench/brokerbench/session"
)

// splitGates separates the storage-profile gates (disk.METRIC ...) from the run
// gates and parses the former; a malformed one is a usage error.
func splitGates(exprs []string) (runs []string, disks []compare.DiskGate, err error) {
	var errs []error
	for _, e := range exprs {
		if !compare.IsDiskGate(e) {
			runs = append(runs, e)
			continue
		}
		g, perr := compare.ParseDiskGate(e)
		if perr != nil {
			errs = append(errs, perr)
			continue
		}
		disks = append(disks, g)
	}
	if len(errs) > 0 {
		return nil, nil, usageError{Err: errors.Join(errs...)}
	}
	return runs, disks, nil
}

// readSides reads each side's files and parts its OLTP runs from its storage
// profiles: a side may hold both (A1.json A2.json A1-disk.json A2-disk.json -- B1.json
// ...), its runs then one side of the runs' comparison and its profiles one side of
// the profiles'. In each part the first file is the side, the others its repeats.
func readSides(sides [][]string) (runs, disks []results.Input, err error) {
	for _, paths := range sides {
		var ofRuns, ofDisks []results.Input
		for _, p := range paths {
			run, err := results.Read(p)
			if err != nil {
				return nil, nil, err
			}
			in := results.Input{Path: p, Run: run}
			if compare.IsDisk(in) {
				ofDisks = append(ofDisks, in)
			} else {
				ofRuns = append(ofRuns, in)
			}
		}
		if len(ofRuns) > 0 {
			runs = append(runs, sideOf(ofRuns))
		}
		if len(ofDisks) > 0 {
			disks = append(disks, sideOf(ofDisks))
		}
	}
	return runs, disks, nil
}

// sideOf is the files as one side: the first, with the others as its repeats.
func sideOf(ins []results.Input) results.Input {
	in := ins[0]
	in.Repeats = ins[1:]
	return in
}

// compareWithDisks compares storage-profile files, and the OLTP runs given with
// them: the runs' comparison first (as compare prints it alone), then the
// profiles'. With both halves, --csv and --html get the runs' and the profiles' go
// to a sibling file (report.html → report-disk.html), since their columns differ.
func compareWithDisks(stdout io.Writer, runs, disks []results.Input, o compareOptions, diskGates []compare.DiskGate) error {
	if len(disks) < 2 {
		return usagef("compare needs two or more storage-profile files to compare; got one (%s)", disks[0].Path)
	}
	if len(runs) == 1 {
		return usagef("compare needs two or more OLTP result files to compare beside the storage profiles; got one (%s)", runs[0].Path)
	}
	var runErr error
	diskCSV, diskHTML := o.CSV, o.HTML
	if len(runs) >= 2 {
		if runErr = compareRunsHalf(stdout, runs, o); runErr != nil && !gateOutcome(runErr) {
			return runErr
		}
		diskCSV, diskHTML = siblingPath(o.CSV, "-disk"), siblingPath(o.HTML, "-disk")
		for _, p := range []string{diskCSV, diskHTML} {
			if p != "" && p != "-" {
				fmt.Fprintf(stdout, "(the storage profiles' half goes to %s)\n", p)
			}
		}
	} else if len(diskGates) < len(o.FailIf) {
		return usagef("--fail-if: only disk.METRIC gates apply to storage-profile files (no OLTP run given)")
	}
	dc, err := compare.CompareDisk(disks)
	if err != nil {
		return usageError{Err: err}
	}
	if err := report.WriteDiskComparisonText(dc, stdout); err != nil {
		return err
	}
	trips, unchecked := dc.CheckGates(diskGates)
	if len(diskGates) > 0 {
		var exprs []string
		for _, g := range unchecked {
			exprs = append(exprs, g.Expr())
		}
		gateLines{heading: "Storage-profile gates:", where: "shared profile step", given: stringsOf(diskGates), unchecked: exprs, trips: trips}.write(stdout)
	}
	if diskCSV != "" {
		if err := session.WriteOutput(stdout, diskCSV, func(w io.Writer) error { return report.WriteDiskComparisonCSV(dc, w) }); err != nil {
			return err
		}
	}
	if diskHTML != "" {
		if err := session.WriteOutput(stdout, diskHTML, func(w io.Writer) error { return report.WriteDiskComparisonHTML(dc, w, diskGates, trips) }); err != nil {
			return err
		}
	}
	var msgs []string
	var ge gateError
	if errors.As(runErr, &ge) {
		msgs = append(msgs, ge.msg)
	}
	if len(trips) > 0 {
		msgs = append(msgs, fmt.Sprintf("%d storage-profile gate(s) tripped: %s", len(trips), strings.Join(trips, "; ")))
	}
	if len(msgs) > 0 {
		return gateError{msg: strings.Join(msgs, "; ")}
	}
	var uj unjudgedError
	if errors.As(runErr, &uj) {
		return runErr // the runs' gates could not judge: exit 4, after the profiles were shown
	}
	return nil
}

// compareRunsHalf compares the OLTP runs given beside storage profiles, every side
// with its repeats, under the gates that are not disk gates, as compare prints
// them alone.
func compareRunsHalf(stdout io.Writer, runs []results.Input, o compareOptions) error {
	ro := o
	ro.FailIf = nil
	for _, e := range o.FailIf {
		if !compare.IsDiskGate(e) {
			ro.FailIf = append(ro.FailIf, e)
		}
	}
	sides := make([][]string, len(runs))
	for i, in := range runs {
		for _, x := range in.All() {
			sides[i] = append(sides[i], x.Path)
		}
	}
	err := runCompare(stdout, sides, ro)
	fmt.Fprintln(stdout)
	return err
}

// gateOutcome tells whether err is a gate's verdict (tripped, or could not judge)
// rather than a failure to compare.
func gateOutcome(err error) bool {
	var ge gateError
	var uj unjudgedError
	return errors.As(err, &ge) || errors.As(err, &uj)
}

// siblingPath is path with suffix before its extension ("-" stays standard output).
func siblingPath(path, suffix string) string {
	if path == "" || path == "-" {
		return path
	}
	ext := filepath.Ext(path)
	return strings.TrimSuffix(path, ext) + suffix + ext
}
