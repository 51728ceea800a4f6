// Package target is the database server a session works on: the one --db names, or a
// managed local PostgreSQL or MariaDB that the session starts (and stops), with its
// memory cap (--server-memory) and the load settings a managed load restarts it with.
// It also refuses, in one line, a server older than its engine supports.
package target
