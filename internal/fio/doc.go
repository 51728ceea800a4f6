// Package fio runs fio (https://github.com/axboe/fio) as a subprocess and reads its
// JSON output: the I/O engine brokerbench's storage profiles (brokerbench disk) run
// on, and the one a trace replay can run on too. It generates job files from plain
// option lists, checks fio's presence and version first, stops fio with SIGINT when
// the context ends (fio then finishes its current job and prints what it measured),
// and decodes --output-format=json+ into Go values. It knows nothing of profiles or
// result files.
package fio
