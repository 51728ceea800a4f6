// Package study is `brokerbench study` without the command line: a whole
// comparison of systems from one file. Check turns the study file (File) into a
// Plan, every workload's options bound by the command's own flags (Binder) and
// checked for every system before anything runs; Run runs the plan's schedule
// (repeat by repeat, the systems interleaved or shuffled from a recorded seed)
// through the sessions that run, disk and replay are, into one study folder: each
// run's result file and the record results.Study, rewritten after every run, so
// an interrupted study resumes without running anything finished again. The
// report is results/compare's Study rendered by results/report (docs/study.md).
package study
