// Package report renders result files and comparisons: the text tables, CSV, JSON
// and self-contained HTML pages with their charts (results/chart), for load runs,
// repeats, storage profiles and replays. It is the top of the results tree: it
// reads the model, figures, merge and compare, and nothing below imports it.
package report
