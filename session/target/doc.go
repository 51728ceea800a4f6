// Package target is the database server a session works on: the one --db names, or a
// managed local PostgreSQL or MariaDB that the session starts (and stops), with its
// memory cap (--server-memory) and the load settings a managed load restarts it with.
// It also refuses, in one line, a server older than its engine supports, and runs
// `pg start`, `pg stop` and `pg status`, the managed PostgreSQL kept between commands.
package target
