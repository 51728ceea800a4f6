// Package load is the load session: it opens the target, settles the load's scale and
// seed (--customers and --trade-days, --size, or the marker of the load it continues),
// prints the plan, runs package loader with its progress on the console, and prints
// the summary, then installs the server routines that run --frames server calls. Drop
// is `schema drop`, which removes what a load made and nothing else. cmd/brokerbench's
// load command fills Options from its flags.
package load
