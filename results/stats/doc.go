// Package stats is the statistics compare's verdicts rest on, over plain numbers and
// histograms: batch means of autocorrelated per-second series, Student t quantiles,
// Welch's difference of means, the block bootstrap of response-time quantiles, and
// the relative change. It knows no result file, so its arithmetic is tested apart
// from what the figures mean.
package stats
