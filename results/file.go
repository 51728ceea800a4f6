package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"reflect"
	"time"
)

// FileError is a result file that cannot be used: missing, unreadable, not JSON,
// or of a format this version does not read. Its message names the file.
type FileError struct {
	Path string
	// Line and Column locate a JSON syntax or type error, 1-based; zero otherwise.
	Line, Column int
	Err          error
}

func (e *FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("result file %s:%d:%d: %v", e.Path, e.Line, e.Column, e.Err)
	}
	return fmt.Sprintf("result file %s: %v", e.Path, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// errNoFile reads "no such file" (not the OS's longer text) and still matches
// fs.ErrNotExist.
type errNoFile struct{}

func (errNoFile) Error() string        { return "no such file" }
func (errNoFile) Is(target error) bool { return target == fs.ErrNotExist }

// ErrFormat is wrapped by errors about a missing or unsupported "format" field.
var ErrFormat = errors.New("unsupported result format")

// Read loads a result file. Errors are *FileError and say what is wrong and where:
// a missing file (errors.Is(err, fs.ErrNotExist)), corrupt JSON with its line and
// column, a missing or unknown "format" (errors.Is(err, ErrFormat)).
func Read(path string) (*Run, error) {
	data, err := readBounded(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &FileError{Path: path, Err: errNoFile{}}
		}
		return nil, &FileError{Path: path, Err: err}
	}
	r, err := Parse(data)
	if err != nil {
		var fe *FileError
		if errors.As(err, &fe) {
			fe.Path = path
			return nil, fe
		}
		return nil, &FileError{Path: path, Err: err}
	}
	return r, nil
}

// readBounded reads at most MaxFileBytes of path: a larger file (or a pipe that
// goes on) is refused before it is held in memory.
func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tooBig := fmt.Errorf("larger than %d MB, the most a result file may be (docs/result-format.md, Bounds)", MaxFileBytes>>20)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > MaxFileBytes {
		return nil, fmt.Errorf("%d MB: %w", st.Size()>>20, tooBig)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, tooBig
	}
	return data, nil
}

// Parse decodes a result file's bytes (see Read). Errors are *FileError with an
// empty Path.
func Parse(data []byte) (*Run, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, &FileError{Err: errors.New("empty file, not a brokerbench result")}
	}
	if trimmed[0] != '{' {
		return nil, &FileError{Err: fmt.Errorf("%w: not a JSON object; a brokerbench result file is one object with a \"format\" field", ErrFormat)}
	}
	// The format is checked first, so a file from a newer brokerbench (whose other
	// fields may have changed type) says "format 2" rather than a type error.
	var head struct {
		Format *json.RawMessage `json:"format"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, jsonError(data, err)
	}
	if head.Format == nil {
		return nil, &FileError{Err: fmt.Errorf("%w: no \"format\" field; not a brokerbench result file", ErrFormat)}
	}
	var format int
	if err := json.Unmarshal(*head.Format, &format); err != nil {
		return nil, &FileError{Err: fmt.Errorf("%w: \"format\" is %s, want the number %d", ErrFormat, *head.Format, FormatVersion)}
	}
	if format != FormatVersion {
		return nil, &FileError{Err: fmt.Errorf("%w: format %d, this brokerbench reads format %d", ErrFormat, format, FormatVersion)}
	}
	var r Run
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, jsonError(data, err)
	}
	if err := Validate(&r); err != nil {
		return nil, &FileError{Err: err}
	}
	return &r, nil
}

// jsonError converts a decoding error to a FileError with the line and column of
// its byte offset, which is what a person opening the file needs.
func jsonError(data []byte, err error) error {
	var off int64 = -1
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	msg := err.Error()
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
		msg = "invalid JSON: " + syn.Error()
	case errors.As(err, &typ):
		// Named for the file's reader, never as a Go type.
		off = typ.Offset
		field := typ.Field
		if field == "" {
			field = "(the top level)"
		}
		msg = fmt.Sprintf("field %q: a JSON %s where %s belongs", field, typ.Value, jsonKind(typ.Type))
	default:
		msg = "invalid JSON: " + msg
	}
	fe := &FileError{Err: errors.New(msg)}
	if off >= 0 {
		fe.Line, fe.Column = lineCol(data, off)
	}
	return fe
}

func lineCol(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	before := data[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// jsonKind names what the format wants where a decoding error happened, in JSON's
// words.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		if t == reflect.TypeFor[time.Time]() {
			return "an RFC 3339 time string"
		}
		return "an object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "another value"
}
