// Package quickstart is `brokerbench quickstart`'s session: a managed PostgreSQL (or
// the --db server), the quickstart scale loaded unless the database already holds a
// load, the managed server's memory capped at half the database so the run reads from
// the disks, a short ramp run as session/run runs it, and its HTML report.
package quickstart
