package results

import (
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Strings in a result file (labels, tags, transaction names, flags, texts) and in
// flags are the user's, or an attacker's: printed raw, "\x1b[2J\x1b]0;title\x07"
// clears a terminal and sets its window title. Text and CSV output show such
// characters escaped instead (docs/faults.md); HTML escapes them on its own, and JSON
// encodes them.

// Printable returns s with its control characters (C0, DEL, C1), bidirectional
// overrides and invalid UTF-8 escaped as Go source writes them (\x1b, \n, \u202e),
// so that printing it cannot move the cursor, clear the screen, set a title or
// reorder the text around it. Ordinary text comes back unchanged.
func Printable(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x` + strconv.FormatUint(uint64(s[i])>>4, 16) + strconv.FormatUint(uint64(s[i])&15, 16))
		case unsafeRune(r):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func unsafeRune(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)
}

func needsEscape(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || unsafeRune(r) {
			return true
		}
	}
	return false
}

// NewTerminalWriter returns a writer that passes text to w with every control
// character but newline and tab escaped (\x1b, \r, \x07; C1 as \u009b), however the
// writes split it: the last guard of text output built from many strings, where each
// string is not escaped on its own.
func NewTerminalWriter(w io.Writer) io.Writer { return &terminalWriter{w: w} }

type terminalWriter struct {
	w    io.Writer
	lead bool // the last write ended in 0xc2, the first byte of a C1 control
}

func (t *terminalWriter) Write(p []byte) (int, error) {
	out := make([]byte, 0, len(p)+8)
	for _, c := range p {
		if t.lead {
			t.lead = false
			if c >= 0x80 && c <= 0x9f {
				out = append(out, `\u00`...)
				out = append(out, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
				continue
			}
			out = append(out, 0xc2)
		}
		switch {
		case c == 0xc2:
			t.lead = true
		case c == '\n' || c == '\t':
			out = append(out, c)
		case c < 0x20 || c == 0x7f:
			out = append(out, '\\', 'x', "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
		default:
			out = append(out, c)
		}
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
