package sqlserver

import (
	"fmt"

	"github.com/brokerbench/brokerbench/database"
)

// unavailable turns an error that only says the server lacks or hides view (a
// missing object, a refused grant: conditionOf) into one that names the view in
// SQL Server's words and is database.ErrUnavailable, and for a refused grant also
// database.ErrPermission, so every command leaves the figure out and says why
// instead of failing. Any other error comes back unchanged.
func unavailable(err error, view string) error {
	switch conditionOf(err) {
	case condMissing:
		return &markedError{fmt.Errorf("%s does not exist on this server (a T-SQL server that is not Microsoft's SQL Server, or an older version): %w", view, err),
			[]error{database.ErrUnavailable}}
	case condPermission:
		return &markedError{fmt.Errorf("the login may not read %s: %w", view, err),
			[]error{database.ErrUnavailable, database.ErrPermission}}
	}
	return err
}

// markedError is an error that is also each of marks (errors.Is).
type markedError struct {
	err   error
	marks []error
}

func (e *markedError) Error() string   { return e.err.Error() }
func (e *markedError) Unwrap() []error { return append([]error{e.err}, e.marks...) }
