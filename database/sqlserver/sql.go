package sqlserver

import "strings"

// SQL turns portable statement text into T-SQL: go-mssqldb binds @p1, @p2, ... where
// the portable text says $1, $2, .... A $ followed by a digit inside a quoted literal
// or identifier is left alone.
func SQL(portable string) string {
	if !strings.Contains(portable, "$") {
		return portable
	}
	var b strings.Builder
	b.Grow(len(portable) + 8)
	var quote byte // the quote character we are inside, or 0
	for i := 0; i < len(portable); i++ {
		c := portable[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0 // a doubled quote reopens on the next byte, which is right
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '$' && i+1 < len(portable) && isDigit(portable[i+1]):
			b.WriteString("@p")
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
