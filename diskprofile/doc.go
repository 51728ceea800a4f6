// Package diskprofile holds the standard storage access-pattern profiles that
// `brokerbench disk` runs (docs/disk-profiles.md): the profiles as data, the fio
// jobs each becomes at a number of outstanding I/Os, profiles added from a file, the
// profile derived from a run's measured I/O, and the step figures read back from
// fio's output. fio does the I/O (internal/fio); nothing here reimplements it.
package diskprofile
