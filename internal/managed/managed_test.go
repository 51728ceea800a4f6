package managed

import "testing"

// A failed mariadb-install-db prints the server's errors, then paragraphs of advice:
// the message keeps the first errors, the cause.
func TestErrorLinesKeepTheCause(t *testing.T) {
	out := `Installing MariaDB/MySQL system tables in '/tmp/d' ...
2026-12-02 10:46:21 0 [ERROR] mariadbd: Out of memory (Needed 0 bytes)
2026-12-02 10:46:21 0 [ERROR] InnoDB: Cannot map innodb_buffer_pool_size_max=8388608m
2026-12-02 10:46:21 0 [ERROR] Plugin 'InnoDB' registration as a STORAGE ENGINE failed.
2026-12-02 10:46:21 0 [ERROR] Aborting

Installation of system tables failed!  Examine the logs in
/tmp/d for more information.

Please check all of the above before submitting a bug report
at https://mariadb.org/jira
`
	want := "2026-12-02 10:46:21 0 [ERROR] mariadbd: Out of memory (Needed 0 bytes) | " +
		"2026-12-02 10:46:21 0 [ERROR] InnoDB: Cannot map innodb_buffer_pool_size_max=8388608m"
	if got := ErrorLines(out, 2); got != want {
		t.Errorf("ErrorLines:\n got %q\nwant %q", got, want)
	}
	script := "mkdir: cannot create directory '/x': Permission denied\nFatal error Can't create database directory '/x/data'\n\nThe latest information is at https://mariadb.com\n"
	if got := ErrorLines(script, 3); got != "Fatal error Can't create database directory '/x/data'" {
		t.Errorf("ErrorLines of a script's fatal error: %q", got)
	}
	if got := ErrorLines("a\nb\nc\n", 2); got != "b | c" {
		t.Errorf("ErrorLines without an error line: %q, want the last lines", got)
	}
}
