// Package iotrace captures the block requests of chosen devices from the kernel's
// tracefs block events, writes them as fio iolog version 3 traces with a summary,
// and replays a trace on another target through fio (docs/io-capture.md). The
// kernel records the events and fio does the replay; what is here is reading the
// events, the trace file, the summary and the replay's fidelity.
package iotrace
