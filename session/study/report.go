package study

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/brokerbench/brokerbench/results/compare"
	"github.com/brokerbench/brokerbench/results/report"
	"github.com/brokerbench/brokerbench/session"
)

// reportFiles are the report's files in the study folder, by their renderer.
var reportFiles = []struct {
	name   string
	render func(*compare.Study, io.Writer) error
}{
	{"report.txt", report.WriteStudyText},
	{"report.html", report.WriteStudyHTML},
	{"report.csv", report.WriteStudyCSV},
	{"report.json", report.WriteStudyJSON},
}

// report writes the study's report into its folder and prints its text.
func (s *study) report() error {
	cmp, err := compare.CompareStudy(s.p.Dir)
	if err != nil {
		return err
	}
	for _, f := range reportFiles {
		path := filepath.Join(s.p.Dir, f.name)
		if err := session.WriteOutput(s.g.Stdout, path, func(w io.Writer) error { return f.render(cmp, w) }); err != nil {
			return err
		}
	}
	fmt.Fprintln(s.g.Stdout)
	if err := report.WriteStudyText(cmp, s.g.Stdout); err != nil {
		return err
	}
	s.g.Logf("the report is in %s (report.txt, report.html, report.csv, report.json); compare %s reads it again", s.p.Dir, s.p.Dir)
	return nil
}
