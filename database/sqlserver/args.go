package sqlserver

import (
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"reflect"
	"strconv"
	"time"

	"github.com/golang-sql/civil"
	mssql "github.com/microsoft/go-mssqldb"
)

// mssqlArgs gives statement parameters SQL Server types that keep plans stable and
// index seeks possible.
//
// go-mssqldb sends a Go string as NVARCHAR and a time.Time as DATETIMEOFFSET. Every
// text column of the schema is VARCHAR and every timestamp DATETIME2, and both
// NVARCHAR and DATETIMEOFFSET rank above them in SQL Server's type precedence, so the
// server would convert the column, not the parameter, and an index seek on
// (t_ca_id, t_dts) or c_tax_id would turn into a scan. Times go as DATETIME2 (wall
// clock, as pgx sends TIMESTAMP).
//
// Strings go as VARCHAR(MAX), not mssql.VarChar: go-mssqldb declares a VarChar as
// varchar(<its length>), and the parameter declarations are part of the plan cache
// key of sp_executesql, so every new combination of lengths (Broker-Volume binds 40
// names) would compile and cache another plan. One declaration means one plan per
// statement. The price is that a MAX parameter compared with a column directly is
// not used for a seek, so the T-SQL statements (txn.SQLServerSQL) CAST each string
// parameter to its column's VARCHAR(n) where it meets a predicate.
func mssqlArgs(args []any) []any {
	if len(args) == 0 {
		return nil
	}
	out := make([]any, len(args))
	for i, a := range args {
		out[i] = mssqlArg(a)
	}
	return out
}

func mssqlArg(a any) any {
	switch v := a.(type) {
	case nil:
		return nil
	case string:
		return mssql.VarCharMax(v)
	case time.Time:
		return civil.DateTimeOf(v)
	case sql.NullString:
		if !v.Valid {
			return nil
		}
		return mssql.VarCharMax(v.String)
	case sql.NullTime:
		if !v.Valid {
			return nil
		}
		return civil.DateTimeOf(v.Time)
	case int, int8, int16, int32, int64, float64, float32, bool, []byte:
		return v
	case driver.Valuer:
		// Decimal types and the like: let them render themselves, then type the
		// result as above (a decimal's string becomes VARCHAR, converted exactly by
		// the server, never through float).
		dv, err := v.Value()
		if err != nil {
			return a // database/sql reports the same error with context
		}
		return mssqlArg(dv)
	}
	// Named types (type Symbol string) reach the driver as their underlying kind.
	rv := reflect.ValueOf(a)
	switch rv.Kind() {
	case reflect.Pointer:
		if rv.IsNil() {
			return nil
		}
		return mssqlArg(rv.Elem().Interface())
	case reflect.String:
		return mssql.VarCharMax(rv.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int()
	case reflect.Slice:
		// T-SQL has no array parameters: a list (the ids and names a server routine
		// takes, docs/workload.md §13) goes as a JSON array, which the procedure reads
		// with OPENJSON in the list's order. A nil list goes as an empty one, not as
		// an untyped NULL, which Babelfish refuses ("Data type 0x1F is unknown").
		if rv.IsNil() {
			return mssql.VarCharMax("[]")
		}
		b, err := json.Marshal(a)
		if err != nil {
			return a // database/sql reports the unsupported type with context
		}
		return mssql.VarCharMax(b)
	}
	return a
}

// bulkValue normalises a RowSource value for go-mssqldb's bulk copy, which accepts
// int, int32 and int64 for integer columns (not int16 or int8), strings for
// VARCHAR and DECIMAL, time.Time for DATE and DATETIME2, and bool for BIT. The schema
// has no floating-point columns, so a float is always a decimal value.
func bulkValue(a any) any {
	switch v := a.(type) {
	case nil, string, int64, int32, int, bool, []byte, time.Time:
		return v
	case float64:
		// The loader boxes decimals as float64 (exact up to 15 significant digits).
		// The shortest decimal string that reads back as the same float is the value
		// the loader meant, and go-mssqldb parses strings into DECIMAL exactly,
		// where its float path multiplies and rounds in binary.
		return strconv.FormatFloat(v, 'f', -1, 64)
	case int16:
		return int64(v)
	case int8:
		return int64(v)
	case uint8:
		return int64(v)
	case uint16:
		return int64(v)
	case uint32:
		return int64(v)
	case float32:
		return strconv.FormatFloat(float64(v), 'f', -1, 32)
	case civil.Date:
		return v.In(time.UTC)
	case civil.DateTime:
		return v.In(time.UTC)
	case driver.Valuer:
		dv, err := v.Value()
		if err != nil {
			return a
		}
		return bulkValue(dv)
	}
	rv := reflect.ValueOf(a)
	switch rv.Kind() {
	case reflect.Pointer:
		if rv.IsNil() {
			return nil
		}
		return bulkValue(rv.Elem().Interface())
	case reflect.String:
		return rv.String()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int()
	case reflect.Bool:
		return rv.Bool()
	}
	return a
}
