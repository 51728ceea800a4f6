package compare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/results/figures"
	"github.com/brokerbench/brokerbench/results/stats"
)

// ChangeVerdict is what compare concludes about one change.
type ChangeVerdict string

const (
	VerdictBetter ChangeVerdict = "better"
	VerdictWorse  ChangeVerdict = "worse"
	// VerdictHigher and VerdictLower are real changes of a figure that is neither
	// good nor bad in itself (reads per transaction).
	VerdictHigher ChangeVerdict = "higher"
	VerdictLower  ChangeVerdict = "lower"
	VerdictNoise  ChangeVerdict = "within noise"
	// VerdictNone: the data cannot judge the change (one run a side, too few
	// repeats, no interval, a base near zero); Estimate.Reason says why.
	VerdictNone ChangeVerdict = "no verdict"
)

// Significant tells whether the interval excludes no change.
func (v ChangeVerdict) Significant() bool {
	return v == VerdictBetter || v == VerdictWorse || v == VerdictHigher || v == VerdictLower
}

// Estimate is one compared figure's change against the base, in percent, with its
// 95 % interval and verdict.
type Estimate struct {
	Change float64
	// Lo and Hi bound the change's interval (percent); NaN when there is none.
	Lo, Hi  float64
	Verdict ChangeVerdict
	// Method says how the interval was made, or why there is none.
	Method string
	// Detectable is the smallest change the data can tell from noise, in percent
	// of the base: the half-width of the change's interval (detectable); NaN
	// without an interval.
	Detectable float64
	// Reason says why Verdict is VerdictNone; "" when the change was judged.
	Reason string
	// NearZero: the base is too small against its own noise or the other side
	// for a percentage to mean anything; the change is shown as the two values.
	NearZero bool
	// RunsA and RunsB are how many runs of each side know the figure.
	RunsA, RunsB int
}

// HasInterval tells whether the estimate carries an interval.
func (e Estimate) HasInterval() bool { return !math.IsNaN(e.Lo) && !math.IsNaN(e.Hi) }

type estKey struct {
	i, r int
	key  string
}

// Estimate is metric m's change of run r against the base at matched row i, with
// its interval. ok is false when either side lacks the figure.
//
// With repeats on either side the runs' own figures are the samples: the change
// of the repeats' means with a Welch t interval on their logarithms; a verdict
// needs MinRepeats runs a side. With one run on each side the interval comes from
// inside the runs (batch means of the per-second or per I/O sample series for
// rates, a block bootstrap of the per-second histograms for response times): it
// is shown, but covers none of the noise between runs, so it gives no verdict
// (docs/result-format.md, "Intervals and verdicts").
func (c *Comparison) Estimate(i, r int, m figures.Metric) (Estimate, bool) {
	k := estKey{i, r, m.Key}
	if e, ok := c.est[k]; ok {
		return e, true
	}
	b, okB := c.Value(i, 0, m)
	v, okV := c.Value(i, r, m)
	if !okB || !okV {
		return Estimate{}, false
	}
	ra, rb := c.Reps[i][0], c.Reps[i][r]
	e := newEstimate(b, v, len(SideValues(ra, m)), len(SideValues(rb, m)))
	switch {
	case b == 0:
		zeroBase(&e, v)
	case len(ra) > 1 || len(rb) > 1:
		acrossRepeats(&e, SideValues(ra, m), SideValues(rb, m), b)
		if e.Reason == "" {
			e.Reason = c.repeatsDoubt(ra, rb, m, b, e.Lo, e.Hi)
		}
	default:
		e.Lo, e.Hi, e.Method = c.withinRunInterval(i, ra[0], rb[0], m, b, e.Change)
		e.Reason = OneRunReason
		if !e.HasInterval() {
			e.Reason = strings.TrimPrefix(e.Method, "no interval: ")
		}
	}
	why, near := nearZeroBase(ra, rb, m, b, v)
	finishEstimate(&e, m, b, why, near)
	if m.Volume && (e.Verdict == VerdictBetter || e.Verdict == VerdictWorse) {
		e.Verdict = c.volumeVerdict(i, r, e)
	}
	c.est[k] = e
	return e, true
}

// newEstimate is the change from b to v, known to runsA and runsB runs, before
// any interval.
func newEstimate(b, v float64, runsA, runsB int) Estimate {
	nan := math.NaN()
	return Estimate{Change: stats.Change(b, v), Lo: nan, Hi: nan, Detectable: nan, RunsA: runsA, RunsB: runsB}
}

// zeroBase says why a base of zero gives no interval. Zero to zero is no change
// and reads "+0.0 %"; zero to anything else is shown as the two values.
func zeroBase(e *Estimate, v float64) {
	e.Method, e.Reason, e.NearZero = "no interval: the base is zero", "the base is zero: compare the values", v != 0
}

// acrossRepeats gives e the interval of the sides' per-run figures xa and xb
// (repeatsInterval), and the reason too few of them give no verdict.
func acrossRepeats(e *Estimate, xa, xb []float64, b float64) {
	e.Lo, e.Hi, e.Method = repeatsInterval(xa, xb, b)
	e.Reason = repeatsReason(len(xa), len(xb))
}

// finishEstimate ends every estimate, of run and storage figures alike: the
// interval cut at -100 %, withdrawn when the base is near zero (why, from
// nearZeroBase), its detectable difference, and the verdict.
func finishEstimate(e *Estimate, m figures.Metric, b float64, why string, near bool) {
	// Every compared figure is a count, rate, time or share, never below zero,
	// so no change is below -100 %: an interval made on the differences (counts
	// with zeros among their repeats) is cut there rather than shown as -315 %.
	if b > 0 && e.Lo < -100 {
		e.Lo = -100
	}
	if near && b != 0 {
		e.Lo, e.Hi, e.NearZero = math.NaN(), math.NaN(), true
		e.Method, e.Reason = "no interval: "+why, why
	}
	if e.HasInterval() {
		e.Detectable = Detectable(e.Lo, e.Hi)
	}
	e.Verdict = verdictOf(m, *e)
}

// verdictOf reads an interval: a change whose interval excludes zero is real,
// and the metric says whether its direction is good.
func verdictOf(m figures.Metric, e Estimate) ChangeVerdict {
	switch {
	case !e.HasInterval() || e.Reason != "":
		return VerdictNone
	case e.Lo <= 0 && e.Hi >= 0:
		return VerdictNoise
	}
	up := e.Lo > 0
	switch {
	case m.Neutral:
		if up {
			return VerdictHigher
		}
		return VerdictLower
	case up == m.HigherIsBetter:
		return VerdictBetter
	}
	return VerdictWorse
}

// volumeVerdict reads a real change of an I/O volume (IOPS, MB/s) against the work
// done beside it. More I/O is the storage delivering more only when more work was done
// with it: tps better too. The same I/O rise with the same or less work is a higher
// cost per transaction (a memory cap forcing reads raises IOPS while tps falls), so
// it reads "higher", not "better"; likewise a fall reads "worse" only beside a fall
// in tps.
func (c *Comparison) volumeVerdict(i, r int, e Estimate) ChangeVerdict {
	m, _ := figures.LookupStepMetric("tps")
	tps, ok := c.Estimate(i, r, m)
	up := e.Lo > 0
	switch {
	case ok && up && tps.Verdict == VerdictBetter:
		return VerdictBetter
	case ok && !up && tps.Verdict == VerdictWorse:
		return VerdictWorse
	case up:
		return VerdictHigher
	}
	return VerdictLower
}

// repeatsInterval is the interval of the change across repeated runs: each run's
// figure (xa the base side's, xb the other's) is one sample, and the interval is Welch's t of the difference of the
// sides' means with Student's t quantile at the Welch–Satterthwaite degrees of
// freedom (12.7 for one, 4.3 for two: few repeats give wide intervals, as they
// should). When every figure is positive the interval is made on their
// logarithms, so it is an interval of the ratio (a change can never fall below
// -100 %, and a run-to-run spread that scales with the figure is judged fairly).
// A side of one run has no spread of its own and gives no interval: borrowing the
// other side's would claim a run-to-run noise nobody measured.
func repeatsInterval(xa, xb []float64, base float64) (lo, hi float64, method string) {
	if len(xa) < 2 || len(xb) < 2 {
		return math.NaN(), math.NaN(), fmt.Sprintf("no interval: %d vs %d runs know the figure; a side of one run has no spread", len(xa), len(xb))
	}
	logs := onLogarithms(xa, xb)
	if logs {
		xa, xb = LogOf(xa), LogOf(xb)
	}
	d, half := stats.WelchDiff(stats.RepeatMean(xa), stats.RepeatMean(xb))
	method = fmt.Sprintf("across repeats: Welch t, %d vs %d runs", len(xa), len(xb))
	if logs {
		return math.Expm1(d-half) * 100, math.Expm1(d+half) * 100, method + ", on the logarithms"
	}
	return (d - half) / math.Abs(base) * 100, (d + half) / math.Abs(base) * 100, method
}

// onLogarithms tells whether repeatsInterval makes its interval on the figures'
// logarithms: only when every one of them is positive.
func onLogarithms(xa, xb []float64) bool { return AllPositive(xa) && AllPositive(xb) }

// differenceNoise is the half-width, in the figure's own unit, of the interval
// repeatsInterval makes on the plain difference of the sides' means; false when it
// makes none (a side of one run) or makes it on the logarithms. nearZeroBase
// holds it against the base.
func differenceNoise(xa, xb []float64) (float64, bool) {
	if len(xa) < 2 || len(xb) < 2 || onLogarithms(xa, xb) {
		return 0, false
	}
	_, half := stats.WelchDiff(stats.RepeatMean(xa), stats.RepeatMean(xb))
	return half, true
}

func AllPositive(xs []float64) bool {
	for _, x := range xs {
		if x <= 0 {
			return false
		}
	}
	return len(xs) > 0
}

func LogOf(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = math.Log(x)
	}
	return out
}

func SideValues(reps []figures.StepView, m figures.Metric) []float64 {
	var xs []float64
	for _, v := range reps {
		if x, ok := m.Value(v); ok {
			xs = append(xs, x)
		}
	}
	return xs
}

// withinRunInterval makes the interval of one run against one run from the
// steps' own samples, centred on the change of the steps' recorded figures.
func (c *Comparison) withinRunInterval(i int, a, b figures.StepView, m figures.Metric, base, change float64) (lo, hi float64, method string) {
	nan := math.NaN()
	if fig, filter, ok := responseFigure(m.Key); ok {
		return c.bootstrapInterval(i, a, b, fig, filter)
	}
	sa, okA := seriesOf(m.Key, a.Step)
	sb, okB := seriesOf(m.Key, b.Step)
	if !okA || !okB {
		return nan, nan, "no interval: " + missingSamples(m.Key)
	}
	least := minSamplesOf(m.Key)
	ea, okA := stats.BatchMeans(sa, least)
	eb, okB := stats.BatchMeans(sb, least)
	if !okA || !okB {
		return nan, nan, fmt.Sprintf("no interval: too short for an interval (fewer than %d samples in a window)", least)
	}
	method = fmt.Sprintf("within each run only: batch means, %d × %d %s vs %d × %d", ea.Batches, ea.Size, seriesUnit(m.Key), eb.Batches, eb.Size)
	if ea.Mean > 0 && eb.Mean > 0 && change > -100 {
		// The interval of the ratio, on the logarithms (the delta method), as across
		// repeats: dividing the difference's interval by a base that is itself
		// uncertain gives bounds below -100 %, which no figure can reach.
		_, half := stats.WelchDiff(logScale(ea), logScale(eb))
		d := math.Log1p(change / 100)
		return (math.Exp(d-half) - 1) * 100, (math.Exp(d+half) - 1) * 100, method + ", on the logarithms"
	}
	_, half := stats.WelchDiff(ea, eb)
	h := half / math.Abs(base) * 100
	return change - h, change + h, method
}

// logScale is a positive mean's estimate moved to its logarithm: by the delta
// method the standard error of log(mean) is se / mean.
func logScale(e stats.MeanEstimate) stats.MeanEstimate {
	e.SE /= e.Mean
	e.Mean = math.Log(e.Mean)
	return e
}

// missingSamples says what a step lacks for an interval of the figure.
func missingSamples(key string) string {
	if fromIOSeries(key) {
		return "a step has no storage series (io.series) or per-second samples"
	}
	if key != "tps" && key != "tps_e" {
		return "no method for this figure"
	}
	return "a step has no per-second samples (written before they were recorded)"
}

// minSamplesOf is the fewest samples a figure's series needs for an interval.
func minSamplesOf(key string) int {
	if fromIOSeries(key) {
		return stats.MinIOSamples
	}
	return stats.MinSamples
}

func seriesUnit(key string) string {
	if fromIOSeries(key) {
		return "I/O samples"
	}
	return "s"
}

// fromIOSeries tells whether the figure's samples are the storage series' (a
// rate of its own, or reads or writes per transaction) rather than per-second.
func fromIOSeries(key string) bool {
	return ioSeriesKeys[key] != nil || key == "reads_per_txn" || key == "writes_per_txn"
}

// ioSeriesKeys are the storage figures whose interval comes from io.series.
var ioSeriesKeys = map[string]func(results.IOFigures) float64{
	"read_iops":  func(f results.IOFigures) float64 { return f.ReadIOPS },
	"write_iops": func(f results.IOFigures) float64 { return f.WriteIOPS },
	"iops":       func(f results.IOFigures) float64 { return f.ReadIOPS + f.WriteIOPS },
	"read_mbps":  func(f results.IOFigures) float64 { return f.ReadMBps },
	"write_mbps": func(f results.IOFigures) float64 { return f.WriteMBps },
}

// seriesOf is the series whose mean the figure is: per-second tps and tpsE, the
// I/O samples' rates, or reads (writes) per transaction of each I/O sample.
func seriesOf(key string, st *results.Step) ([]float64, bool) {
	switch key {
	case "tps", "tps_e":
		if st.Samples == nil {
			return nil, false
		}
		if key == "tps" {
			return st.Samples.TPS, true
		}
		return st.Samples.TPSE, true
	case "reads_per_txn", "writes_per_txn":
		return perTxnSeries(st, key == "reads_per_txn")
	}
	f := ioSeriesKeys[key]
	if f == nil || !figures.IOKnown(st.IO) || len(st.IO.Series) == 0 {
		return nil, false
	}
	xs := make([]float64, len(st.IO.Series))
	for j, s := range st.IO.Series {
		xs[j] = f(s.IOFigures)
	}
	return xs, true
}

// perTxnSeries is each I/O sample's reads (or writes) over the transactions that
// finished in its interval, from the per-second tps samples (second k of the
// window ends k+1 seconds after the window opened).
func perTxnSeries(st *results.Step, reads bool) ([]float64, bool) {
	if !figures.IOKnown(st.IO) || len(st.IO.Series) == 0 || st.Samples == nil || len(st.Samples.TPS) == 0 {
		return nil, false
	}
	open := st.StartedAt.Add(results.SecondsDuration(st.WarmupS))
	prev := open
	var xs []float64
	for _, s := range st.IO.Series {
		from, to := prev.Sub(open).Seconds(), s.At.Sub(open).Seconds()
		prev = s.At
		var txns float64
		for k, tps := range st.Samples.TPS {
			if end := float64(k + 1); end > from && end <= to {
				txns += tps
			}
		}
		if txns <= 0 || to <= from {
			continue
		}
		rate := s.WriteIOPS
		if reads {
			rate = s.ReadIOPS
		}
		xs = append(xs, rate*(to-from)/txns)
	}
	return xs, true
}

// responseFigure splits a response-time metric key into its figure index (0 the
// Mean, then respQuantiles) and the transaction slug it covers ("" all).
func responseFigure(key string) (fig int, slug string, ok bool) {
	name := key
	if dot := strings.LastIndexByte(key, '.'); dot > 0 {
		slug, name = key[:dot], key[dot+1:]
	}
	switch name {
	case "avg":
		return 0, slug, true
	case "p50":
		return 1, slug, true
	case "p90":
		return 2, slug, true
	case "p95":
		return 3, slug, true
	case "p99":
		return 4, slug, true
	}
	return 0, "", false
}

// bootKey names one bootstrap: a pair of steps at matched row i and the
// transaction filter ("" all).
type bootKey struct {
	i    int
	a, b *results.Step
	slug string
}

// bootResult is one bootstrap's intervals of every response figure (nil when
// there is none) and how they were made, or why not.
type bootResult struct {
	lo, hi []float64
	method string
}

// bootstrapInterval is the block bootstrap of a response figure's change,
// computed once for all figures of one pair of steps and one transaction filter:
// the steps' batches are built and resampled on the first figure asked for.
func (c *Comparison) bootstrapInterval(i int, a, b figures.StepView, fig int, slug string) (lo, hi float64, method string) {
	k := bootKey{i: i, a: a.Step, b: b.Step, slug: slug}
	res, ok := c.boot[k]
	if !ok {
		res = c.bootstrap(a.Step, b.Step, slug)
		c.boot[k] = res
	}
	if res.lo == nil {
		return math.NaN(), math.NaN(), res.method
	}
	return res.lo[fig], res.hi[fig], res.method
}

func (c *Comparison) bootstrap(a, b *results.Step, slug string) bootResult {
	ba, okA := c.respBlocksOf(a, slug)
	bb, okB := c.respBlocksOf(b, slug)
	if !okA || !okB {
		return bootResult{method: "no interval: a step has no per-second histograms (or too few seconds, or its responses fall in one batch)"}
	}
	los, his := stats.BootstrapChanges(ba, bb, stats.BootstrapResamples)
	return bootResult{lo: los, hi: his, method: fmt.Sprintf("within each run only: block bootstrap, %d × %d s vs %d × %d s, %d resamples",
		len(ba.Cum), ba.Size, len(bb.Cum), bb.Size, stats.BootstrapResamples)}
}

// respBlocksOf batches a step's per-second response histograms of one transaction
// type (by slug) or of all, each histogram decoded once per comparison.
func (c *Comparison) respBlocksOf(st *results.Step, slug string) (stats.RespBlocks, bool) {
	return respBlocksFrom(st, slug, func(name string, hs []string) ([][]stats.ValueCount, error) {
		k := secKey{st, name}
		if secs, ok := c.secs[k]; ok {
			return secs, nil
		}
		secs, err := responseSeconds(hs)
		if err == nil {
			c.secs[k] = secs
		}
		return secs, err
	})
}

type secKey struct {
	st   *results.Step
	name string
}

func respBlocksOf(st *results.Step, slug string) (stats.RespBlocks, bool) {
	return respBlocksFrom(st, slug, func(_ string, hs []string) ([][]stats.ValueCount, error) { return responseSeconds(hs) })
}

func respBlocksFrom(st *results.Step, slug string, decode func(name string, hs []string) ([][]stats.ValueCount, error)) (stats.RespBlocks, bool) {
	if st.Samples == nil {
		return stats.RespBlocks{}, false
	}
	var series [][][]stats.ValueCount
	for _, name := range figures.SortedKeys(st.Samples.Response) {
		if slug != "" && results.Slug(name) != slug {
			continue
		}
		secs, err := decode(name, st.Samples.Response[name])
		if err != nil {
			return stats.RespBlocks{}, false
		}
		series = append(series, secs)
	}
	return stats.NewRespBlocks(series)
}

// OwnInterval is the 95 % interval of one step's own figure (not of a change),
// drawn on the charts: batch means for a rate, a block bootstrap of the step's
// per-second histograms for a response time. ok is false without samples.
func OwnInterval(st *results.Step, m figures.Metric, v float64) (lo, hi float64, ok bool) {
	if fig, slug, isResp := responseFigure(m.Key); isResp {
		rb, ok := respBlocksOf(st, slug)
		if !ok {
			return 0, 0, false
		}
		rng := rand.New(rand.NewPCG(0x5eed, 0x0e1f))
		var draws []float64
		var w []int
		for range stats.BootstrapResamples / 2 {
			w = rb.Resample(rng, w)
			if f, ok := rb.Figures(w); ok {
				draws = append(draws, f[fig])
			}
		}
		lo, hi = stats.Widened(draws, stats.SmallSampleWidening(len(rb.Cum)))
		return lo, hi, !math.IsNaN(lo)
	}
	xs, ok := seriesOf(m.Key, st)
	if !ok {
		return 0, 0, false
	}
	e, ok := stats.BatchMeans(xs, minSamplesOf(m.Key))
	if !ok {
		return 0, 0, false
	}
	// Every figure drawn with a bar is a rate or a count per transaction: a short,
	// bursty step's interval may reach below zero, which no such figure can.
	return max(v-e.Half(), 0), v + e.Half(), true
}
