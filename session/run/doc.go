// Package run is the run session: a ramp of users (or a --find-max search) through the
// workload on a loaded database, phase by phase (runSession in session.go), each step
// judged, recorded in the result file and printed as it finishes, then the report and
// the consistency check; --repeat runs the plan again, --shard drives one share of a
// run. cmd/brokerbench's run command fills Options from its flags and --config and calls
// Run; quickstart opens its own target and drives a Session.
package run
