package load

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/brokerbench/brokerbench/loader"
	"github.com/brokerbench/brokerbench/schema"
	"github.com/brokerbench/brokerbench/session"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"
)

// StartProgress shows per-table bars on a terminal, a line every 10 s otherwise, and
// nothing with --quiet. The returned function stops it.
func StartProgress(g session.Console, tr *loader.Tracker) func() {
	if g.Quiet {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	if f, ok := g.Stderr.(*os.File); ok && isSizedTerminal(f) {
		go func() {
			defer close(finished)
			barsProgress(f, tr, done)
		}()
	} else {
		go func() {
			defer close(finished)
			linesProgress(g.Stderr, tr, done, 10*time.Second)
		}()
	}
	return func() {
		close(done)
		<-finished
	}
}

// isSizedTerminal: bars need a terminal with a width (a pty without a size, as some
// CI runners give, renders nothing; lines work there).
func isSizedTerminal(f *os.File) bool {
	if !term.IsTerminal(int(f.Fd())) {
		return false
	}
	w, _, err := term.GetSize(int(f.Fd()))
	return err == nil && w > 0
}

func barsProgress(w io.Writer, tr *loader.Tracker, done <-chan struct{}) {
	p := mpb.New(mpb.WithOutput(w), mpb.WithWidth(40), mpb.WithRefreshRate(200*time.Millisecond))
	bars := make([]*mpb.Bar, len(tr.Tables))
	for i, t := range tr.Tables {
		bars[i] = p.AddBar(max(t.Expected, 1),
			mpb.PrependDecorators(decor.Name(fmt.Sprintf("%-19s", t.Name))),
			mpb.AppendDecorators(decor.CountersNoUnit("%d / %d")))
	}
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	update := func(final bool) {
		for i, t := range tr.Tables {
			n := t.Rows()
			if t.Done() || final {
				// Estimated tables end where they end.
				bars[i].SetTotal(max(n, 1), true)
				continue
			}
			if n >= t.Expected && !schema.RowsExact(t.Name) {
				bars[i].SetTotal(n+1, false) // an estimate was low; the bar is not done yet
			}
			bars[i].SetCurrent(n)
		}
	}
	for {
		select {
		case <-done:
			update(true)
			p.Wait()
			return
		case <-tick.C:
			update(false)
		}
	}
}

func linesProgress(w io.Writer, tr *loader.Tracker, done <-chan struct{}, every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	start := time.Now()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
			var rows, exp, bytes int64
			for _, t := range tr.Tables {
				rows += t.Rows()
				exp += t.Expected
				bytes += t.Bytes()
			}
			fmt.Fprintf(w, "load: %s, %s: %d of ~%d rows (%.0f%%), %.0f MB streamed\n",
				time.Since(start).Round(time.Second), tr.Phase(), rows, exp, 100*float64(rows)/float64(max(exp, 1)), float64(bytes)/1e6)
		}
	}
}
