package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// limitsTable is what report and compare show, built once and rendered as text or HTML,
// so the two outputs cannot drift apart.
type table struct {
	Caption string
	Head    []string
	Rows    [][]cell
}

// cell is one table cell; Class styles it in HTML ("num", "better", "worse", "name").
type cell struct {
	Text  string
	Class string
}

func numCell(format string, v float64) cell { return cell{Text: fmt.Sprintf(format, v), Class: "num"} }

var dash = cell{Text: "-", Class: "num"}

// writeTextTable prints t with its first column left-aligned and the others
// right-aligned, under an optional caption line.
func writeTextTable(w io.Writer, t table) error {
	if t.Caption != "" {
		if _, err := fmt.Fprintf(w, "\n%s\n", t.Caption); err != nil {
			return err
		}
	}
	width := 0
	if len(t.Head) > 0 {
		width = len(t.Head[0])
	}
	for _, r := range t.Rows {
		if len(r) > 0 {
			width = max(width, len([]rune(r[0].Text)))
		}
	}
	// AlignRight applies to every column; the first is padded to read left-aligned.
	tw := tabwriter.NewWriter(w, 2, 0, 2, ' ', tabwriter.AlignRight)
	line := func(first string, rest []string) {
		pad := width - len([]rune(first))
		fmt.Fprintf(tw, "  %s%s\t%s\t\n", first, strings.Repeat(" ", max(pad, 0)), strings.Join(rest, "\t"))
	}
	if len(t.Head) > 0 {
		line(t.Head[0], t.Head[1:])
	}
	for _, r := range t.Rows {
		if len(r) == 0 {
			continue
		}
		rest := make([]string, len(r)-1)
		for i, c := range r[1:] {
			rest[i] = c.Text
		}
		line(r[0].Text, rest)
	}
	return tw.Flush()
}
