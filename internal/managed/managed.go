// Package managed holds what the local servers brokerbench starts (internal/pgmanaged,
// internal/mdbmanaged) share: a free port to start on, the end of a server's output
// for an error message, and the marker that says brokerbench made a data folder
// (marker.go).
package managed

import (
	"net"
	"strings"
)

// FreePort asks the kernel for a free TCP port on loopback.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// LastLines is the last n lines of s on one line, for an error message.
func LastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// ErrorLines is the first n lines of s that report an error ("[ERROR]", as
// mariadbd writes them, or a "Fatal error" of its install script) on one line, or
// the last n lines when none does. The first error is the cause, the later ones
// its consequences, and an install script ends its failure with paragraphs of
// advice that would crowd the cause out of the last lines.
func ErrorLines(s string, n int) string {
	var errs []string
	for _, line := range strings.Split(s, "\n") {
		if strings.Contains(line, "[ERROR]") || strings.HasPrefix(line, "Fatal error") {
			errs = append(errs, strings.TrimSpace(line))
			if len(errs) == n {
				break
			}
		}
	}
	if len(errs) == 0 {
		return LastLines(s, n)
	}
	return strings.Join(errs, " | ")
}
