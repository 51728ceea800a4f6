package loader

import (
	"context"
	"io"
	"sync/atomic"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// A sink queues the chunks of one segment of one table (loader/segment.go): jobs on
// any worker send it chunks, tableStream.run streams them into the segment's bulk
// operation (database.SegmentLoader), and it ends when the last job writing the
// segment is done.
type sink struct {
	table   schema.Table
	ch      chan chunk
	writers atomic.Int32 // jobs still to finish that write this table
	prog    *TableProgress
	// format is the database's own row encoding; nil sends boxed rows through DB.Bulk.
	format *database.RowFormat
}

// sinkQueue is how many chunks may wait per table: memory stays bounded at about
// tables x (queue + 1 per worker and 1 for the ordered producer) x chunkBytes,
// whatever the scale.
const sinkQueue = 4

func (s *sink) newEncoder() rowEncoder {
	if s.format != nil {
		return encodedRows{s.format.NewEncoder(len(s.table.Columns), chunkBytes)}
	}
	return newBoxedEncoder(len(s.table.Columns))
}

// send hands a chunk to the sink, giving up when the load is canceled.
func (s *sink) send(ctx context.Context, c chunk) error {
	select {
	case s.ch <- c:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// done marks one writer finished; the last one closes the queue.
func (s *sink) done() {
	if s.writers.Add(-1) == 0 {
		close(s.ch)
	}
}

// chunkReader presents the queue as one stream in the database's row format.
type chunkReader struct {
	ctx    context.Context
	s      *sink
	cur    []byte
	header bool
	eof    bool
}

func (r *chunkReader) Read(p []byte) (int, error) {
	for len(r.cur) == 0 {
		if r.eof {
			return 0, io.EOF
		}
		if !r.header {
			r.header = true
			r.cur = r.s.format.Header
			continue
		}
		select {
		case c, ok := <-r.s.ch:
			if !ok {
				r.cur, r.eof = r.s.format.Trailer, true
				continue
			}
			r.cur = c.data
			r.s.prog.add(int64(c.rows), int64(c.bytes))
		case <-r.ctx.Done():
			return 0, context.Cause(r.ctx)
		}
	}
	n := copy(p, r.cur)
	r.cur = r.cur[n:]
	return n, nil
}

// chunkSource presents the queue as a database.RowSource of boxed rows.
type chunkSource struct {
	ctx  context.Context
	s    *sink
	rows [][]any
	i    int
	err  error
}

var _ database.RowSource = (*chunkSource)(nil)

func (c *chunkSource) Next() bool {
	c.i++
	for c.i >= len(c.rows) {
		select {
		case ch, ok := <-c.s.ch:
			if !ok {
				return false
			}
			c.rows, c.i = ch.boxed, 0
			c.s.prog.add(int64(ch.rows), int64(ch.bytes))
		case <-c.ctx.Done():
			c.err = context.Cause(c.ctx)
			return false
		}
	}
	return true
}

func (c *chunkSource) Values() ([]any, error) { return c.rows[c.i], nil }
func (c *chunkSource) Err() error             { return c.err }
