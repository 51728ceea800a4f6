package mysql

import (
	"fmt"
	"strconv"
	"strings"
)

// SQL turns portable statement text into MySQL's: the driver binds ? by position
// where the portable text says $1, $2, ..., so each parameter must appear once, in
// order; the statements whose portable text repeats a parameter have a MySQL
// override that does not (pinned by the statement goldens of package txn). A $
// followed by a digit inside a quoted literal or identifier is left alone.
//
// A parameter out of order is a bug in a statement, never user input: SQL panics
// with the statement, as a malformed regular expression would.
func SQL(portable string) string {
	if !strings.Contains(portable, "$") {
		return portable
	}
	var b strings.Builder
	b.Grow(len(portable))
	var quote byte // the quote character we are inside, or 0
	next := 1
	for i := 0; i < len(portable); i++ {
		c := portable[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0 // a doubled quote reopens on the next byte, which is right
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '$' && i+1 < len(portable) && isDigit(portable[i+1]):
			j := i + 1
			for j < len(portable) && isDigit(portable[j]) {
				j++
			}
			if n, _ := strconv.Atoi(portable[i+1 : j]); n != next {
				panic(fmt.Sprintf("mysql: parameter $%d where $%d was due (each once, in order): %s", n, next, portable))
			}
			next++
			b.WriteByte('?')
			i = j - 1
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
