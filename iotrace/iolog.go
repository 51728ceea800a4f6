package iotrace

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// iologHeader is the first line of fio's iolog version 3 (fio 3.31 and later):
// every line then starts with a timestamp in microseconds from the trace's start,
// which fio replays as the delay between requests (fio's HOWTO, "Trace file
// format v3").
const iologHeader = "fio version 3 iolog"

// iologWriter streams a trace: nothing is held but the write buffer.
type iologWriter struct {
	w     *bufio.Writer
	files []string
	buf   []byte
}

func newIologWriter(w io.Writer, files []string) (*iologWriter, error) {
	iw := &iologWriter{w: bufio.NewWriterSize(w, 1<<20), files: files}
	fmt.Fprintln(iw.w, iologHeader)
	for _, f := range files {
		fmt.Fprintf(iw.w, "0 %s add\n", f)
	}
	for _, f := range files {
		fmt.Fprintf(iw.w, "0 %s open\n", f)
	}
	return iw, iw.w.Flush()
}

// request writes one request: "TS FILE ACTION OFFSET LENGTH".
func (iw *iologWriter) request(tsUS int64, file string, d Direction, offset, length int64) error {
	b := strconv.AppendInt(iw.buf[:0], tsUS, 10)
	b = append(b, ' ')
	b = append(b, file...)
	b = append(b, ' ')
	b = append(b, d.String()...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, offset, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, length, 10)
	b = append(b, '\n')
	iw.buf = b
	_, err := iw.w.Write(b)
	return err
}

// flush pushes what is buffered to the file, so an interrupted capture leaves every
// request read so far on disk.
func (iw *iologWriter) flush() error { return iw.w.Flush() }

// close ends the trace with the files' close actions at tsUS.
func (iw *iologWriter) close(tsUS int64) error {
	for _, f := range iw.files {
		fmt.Fprintf(iw.w, "%d %s close\n", tsUS, f)
	}
	return iw.w.Flush()
}
