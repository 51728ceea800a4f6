package iostat

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// serverProcess is offered by database readers that can name their server process
// (PostgreSQL: the backend of the sampler's own connection).
type serverProcess interface {
	ServerProcess() (pid int, host string)
}

// serverIsLocal says whether the server behind a connection runs on this host and
// uses dataDir, so that the disks under dataDir are the server's. A PostgreSQL
// backend's working directory is the data directory: when /proc/PID/cwd is that
// directory, the server is ours. When that cannot be read (not root, not the server's
// user), a unix socket or loopback address is taken as local. A same-named directory
// on a driver host that also has PostgreSQL installed is thus not mistaken for the
// remote server's.
func serverIsLocal(proc string, pid int, host, dataDir string) (bool, string) {
	if pid > 0 {
		cwd, err := os.Readlink(filepath.Join(proc, strconv.Itoa(pid), "cwd"))
		switch {
		case err == nil:
			if sameDir(cwd, dataDir) {
				return true, ""
			}
			return false, "the server's process is not on this host (process " + strconv.Itoa(pid) + " here works in " + cwd + ")"
		case errors.Is(err, fs.ErrNotExist):
			return false, "the server's process " + strconv.Itoa(pid) + " is not on this host (another host or a container)"
		}
	}
	if strings.HasPrefix(host, "/") || host == "localhost" {
		return true, ""
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return true, ""
	}
	return false, "the server is at " + host + ", not on this host"
}

func sameDir(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return ra == rb
}
