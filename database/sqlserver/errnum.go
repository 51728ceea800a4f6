package sqlserver

import (
	"errors"
	"slices"

	mssql "github.com/microsoft/go-mssqldb"
)

// SQL Server error numbers (sys.messages) that say the server cannot or will not
// show something, as opposed to a failure.
var (
	// permissionNumbers: a permission the login lacks.
	permissionNumbers = []int32{
		229, // "The %ls permission was denied on the object ..."
		262, // "%ls permission denied in database ..."
		297, // "The user does not have permission to perform this action."
		300, // "VIEW SERVER STATE permission was denied on object 'server' ..."
		916, // "The server principal ... is not able to access the database ... under the current security context."
	}
	// missingNumbers: an object, column or function this server does not have.
	missingNumbers = []int32{
		195,  // "'%.*ls' is not a recognized built-in function name."
		207,  // "Invalid column name ..."
		208,  // "Invalid object name ..."
		4121, // "Cannot find either column ... or the user-defined function or aggregate ..."
	}
)

// hasNumber reports whether any error of err's batch (mssql.Error.All) has one of
// nums: the decisive error need not be the last one the server sent.
func hasNumber(err error, nums []int32) bool {
	var e mssql.Error
	if !errors.As(err, &e) {
		return false
	}
	if slices.Contains(nums, e.Number) {
		return true
	}
	for _, x := range e.All {
		if slices.Contains(nums, x.Number) {
			return true
		}
	}
	return false
}

func permissionDenied(err error) bool { return hasNumber(err, permissionNumbers) }
func missingObject(err error) bool    { return hasNumber(err, missingNumbers) }
