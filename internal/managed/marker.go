package managed

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// MarkerFile, in a server's data folder, says brokerbench made it (initdb,
// mariadb-install-db): brokerbench starts, reconfigures and chowns only data folders
// that hold it (docs/faults.md, "Clusters and folders brokerbench did not create").
// It sits beside the server's own files, so a copy of the folder carries it.
const MarkerFile = "brokerbench-created.json"

// marker is MarkerFile's content: who made the folder and when, for a person who
// finds it.
type marker struct {
	CreatedBy string    `json:"created_by"`
	Server    string    `json:"server"`
	Created   time.Time `json:"created"`
	Note      string    `json:"note"`
}

// Mark writes MarkerFile into dir, which brokerbench just made for server
// ("PostgreSQL", "MariaDB"). The file is written beside and renamed into place: the
// folder belongs to the server's OS user, and root must not write through a link
// planted there.
func Mark(dir, server string) error {
	b, _ := json.MarshalIndent(marker{CreatedBy: "brokerbench", Server: server, Created: time.Now().UTC().Truncate(time.Second),
		Note: "brokerbench starts, reconfigures and chowns only data folders that hold this file"}, "", "  ")
	tmp, err := os.CreateTemp(dir, "."+MarkerFile+".*")
	if err != nil {
		return fmt.Errorf("mark %s as made by brokerbench: %w", dir, err)
	}
	err = tmp.Chmod(0o644)
	if err == nil {
		_, err = tmp.Write(append(b, '\n'))
	}
	if closeErr := tmp.Close(); err == nil {
		err = closeErr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, MarkerFile))
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("mark %s as made by brokerbench: %w", dir, err)
	}
	return nil
}

// Marked reports whether dir holds MarkerFile as a plain file (a link is not a
// marker: whoever can write the folder could point it anywhere).
func Marked(dir string) (bool, error) {
	fi, err := os.Lstat(filepath.Join(dir, MarkerFile))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, err
	}
	return fi.Mode().IsRegular(), nil
}
