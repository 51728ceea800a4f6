// Package chart draws the line charts of brokerbench's HTML reports: series of
// points with their intervals or repeats' boxes, reference lines and marked points,
// as inline SVG through gonum/plot. It knows nothing of result files: package report
// turns runs into Lines.
package chart

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Chart size is fixed so that the SVG, and with it the golden files, depend only
// on the data. The page scales each chart to its full width (the SVG has a
// viewBox); drawn this wide, the text stays at about its nominal size on a
// desktop page instead of being blown up.
const (
	chartWidth  = 28 * vg.Centimeter
	chartHeight = 10 * vg.Centimeter
)

// Options are what a chart shows beyond its lines.
type Options struct {
	// XTicks, when set, are the only x ticks (the steps' user counts), labelled
	// as integers.
	XTicks []float64
	// XLabel names an x tick (a block size's "64k"); nil prints the number.
	XLabel func(float64) string
	// LogX draws x on a log scale (user counts that double at every step).
	LogX bool
	// HLines are horizontal reference lines, e.g. a limit.
	HLines []RefLine
	// Marks are highlighted points with a label, e.g. the maximum found.
	Marks []Mark
}

// RefLine is a horizontal line at Y, named in the legend.
type RefLine struct {
	Y    float64
	Name string
}

// Mark is a point drawn large, with its label next to it.
type Mark struct {
	X, Y  float64
	Label string
}

// Line is one series of a chart.
type Line struct {
	Name   string
	Xs, Ys []float64
	Dashed bool
	Color  int // palette index; lines of one run share a colour
	// Lo and Hi, when set (one per point, NaN for none), are each point's 95 %
	// interval, drawn as a bar.
	Lo, Hi []float64
	// Boxes, when set, are each point's repeats' values, drawn as a box plot.
	Boxes [][]float64
	// Breaks are the indices of the points that start a new segment: the line is
	// not drawn from the point before (a time series across a gap in its samples).
	Breaks []int
}

// palette is colour-blind friendly (Okabe-Ito), so runs stay apart in print too.
var palette = [...]color.RGBA{
	{0x00, 0x72, 0xB2, 0xff}, {0xD5, 0x5E, 0x00, 0xff}, {0x00, 0x9E, 0x73, 0xff},
	{0xCC, 0x79, 0xA7, 0xff}, {0xE6, 0x9F, 0x00, 0xff}, {0x56, 0xB4, 0xE9, 0xff},
	{0x00, 0x00, 0x00, 0xff}, {0xF0, 0xE4, 0x42, 0xff},
}

// glyphs tell series apart beside their colour: with five shapes and eight
// colours, forty series differ in one or the other, and the lines of a run past
// the palette's eighth are dashed as well.
var glyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}

// hollowGlyphs are glyphs' outlines, for dashed lines: a dashed series shares its
// colour with a solid one (a run's p95 beside its average), and at a single user
// count there is no line to show the dashes, only the points.
var hollowGlyphs = []draw.GlyphDrawer{draw.RingGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}

// chartFont is the charts' one font family, the report pages' too (results' pageCSS): Liberation
// Sans, which gonum/plot embeds, so the SVG's metrics and the text agree.
var chartFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

// SVG draws the lines with gonum/plot and returns an <svg> element ready
// to be inlined into HTML (no XML prolog), with the options' ticks, scale, reference
// lines and marks and the lines' intervals and boxes. Lines with fewer than one point
// are skipped; a chart with no line at all gives "" instead of empty axes. The
// legend sits to the right of the plotted area, never on the lines.
func SVG(title, xLabel, yLabel string, lines []Line, o Options) (string, error) {
	p, leg := newChartPlot(title, xLabel, yLabel)
	drawn := 0
	spread := 0 // lines with intervals or boxes, which stand side by side
	for _, l := range lines {
		if len(l.Xs) > 0 && (len(l.Lo) > 0 || len(l.Boxes) > 0) {
			spread++
		}
	}
	k := 0
	for _, l := range lines {
		if len(l.Xs) == 0 {
			continue
		}
		// Each spread line's bars and boxes move sideways by its rank among them,
		// centred on the point.
		var off vg.Length
		if len(l.Lo) > 0 || len(l.Boxes) > 0 {
			off = vg.Points(14 * (float64(k) - float64(spread-1)/2))
			k++
		}
		if err := addLine(p, &leg, l, off); err != nil {
			return "", fmt.Errorf("chart %q: %w", title, err)
		}
		drawn++
	}
	if drawn == 0 {
		return "", nil
	}
	if err := addReferences(p, &leg, o); err != nil {
		return "", fmt.Errorf("chart %q: %w", title, err)
	}
	setAxes(p, o)
	svg, err := renderChart(p, leg)
	if err != nil {
		return "", fmt.Errorf("chart %q: %w", title, err)
	}
	return svg, nil
}

// newChartPlot is an empty plot with its titles, a grid and the charts' font, and
// its legend, kept apart from the plot so that it can be drawn beside it.
func newChartPlot(title, xLabel, yLabel string) (*plot.Plot, plot.Legend) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Y.Min = 0
	useFont(p)
	leg := plot.NewLegend()
	leg.TextStyle.Font = font.From(chartFont, leg.TextStyle.Font.Size)
	leg.Top, leg.Left = true, true
	// gonum stacks entries edge to edge; with the page's wider font two names
	// touched, so each entry gets a little room.
	leg.Padding = vg.Points(3)
	p.Add(plotter.NewGrid())
	return p, leg
}

// addLine draws one series (at least one point): its segments, its points, its
// intervals and boxes moved sideways by off, and its legend entry.
func addLine(p *plot.Plot, leg *plot.Legend, l Line, off vg.Length) error {
	pts := make(plotter.XYs, len(l.Xs))
	for i := range l.Xs {
		pts[i].X, pts[i].Y = l.Xs[i], l.Ys[i]
	}
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return err
	}
	c := palette[l.Color%len(palette)]
	sc.Color = c
	sc.Shape = glyphs[l.Color%len(glyphs)]
	if l.Dashed {
		sc.Shape = hollowGlyphs[l.Color%len(hollowGlyphs)]
	}
	sc.Radius = vg.Points(3)
	var ln *plotter.Line
	for _, seg := range segments(pts, l.Breaks) {
		s, err := plotter.NewLine(seg)
		if err != nil {
			return err
		}
		s.Color = c
		s.Width = vg.Points(1.5)
		if l.Dashed || l.Color >= len(palette) {
			s.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		p.Add(s)
		if ln == nil {
			ln = s
		}
	}
	p.Add(sc)
	if len(l.Lo) > 0 || len(l.Boxes) > 0 {
		if err := addSpread(p, l, c, off); err != nil {
			return err
		}
	}
	leg.Add(l.Name, ln, sc)
	return nil
}

// setAxes leaves room around the data, so the end points and the top of the curve
// are not cut by the frame, and sets the scale and the ticks.
func setAxes(p *plot.Plot, o Options) {
	if o.LogX && p.X.Min > 0 {
		f := math.Pow(p.X.Max/p.X.Min, 0.06)
		if f <= 1 {
			f = 1.5
		}
		p.X.Min /= f
		p.X.Max *= f
		p.X.Scale = plot.LogScale{}
	} else {
		xspan := p.X.Max - p.X.Min
		if xspan == 0 {
			xspan = 1
		}
		p.X.Min -= 0.06 * xspan
		p.X.Max += 0.06 * xspan
	}
	p.Y.Max *= 1.1
	if p.Y.Max == 0 {
		p.Y.Max = 1
	}
	if len(o.XTicks) > 0 {
		p.X.Tick.Marker = valueTicks(o.XTicks, o.XLabel)
	} else {
		p.X.Tick.Marker = roundTicks{}
	}
	p.Y.Tick.Marker = roundTicks{}
}

// renderChart draws the plot and, to its right, the legend, into an <svg> element
// ready to be inlined.
func renderChart(p *plot.Plot, leg plot.Legend) (string, error) {
	canvas := vgsvg.New(chartWidth, chartHeight)
	dc := draw.New(canvas)
	// The page draws the charts' text in its own font stack (pageCSS), whose
	// fallback (DejaVu Sans where Liberation Sans is not installed) runs up to a
	// fifth wider than the metrics gonum lays the legend out with.
	legW := leg.Rectangle(dc).Size().X*1.2 + vg.Points(12)
	p.Draw(draw.Crop(dc, 0, -legW, 0, 0))
	leg.Draw(draw.Crop(dc, chartWidth-legW+vg.Points(6), 0, 0, -vg.Points(24)))
	var buf bytes.Buffer
	if _, err := canvas.WriteTo(&buf); err != nil {
		return "", err
	}
	return inlineSVG(buf.String()), nil
}

// segments cuts pts before each of the breaks (indices, ascending).
func segments(pts plotter.XYs, breaks []int) []plotter.XYs {
	var out []plotter.XYs
	from := 0
	for _, b := range breaks {
		if b > from && b < len(pts) {
			out = append(out, pts[from:b])
			from = b
		}
	}
	return append(out, pts[from:])
}

// useFont sets every text of the plot in chartFont, keeping gonum's sizes.
func useFont(p *plot.Plot) {
	for _, st := range []*text.Style{&p.Title.TextStyle, &p.X.Label.TextStyle, &p.Y.Label.TextStyle, &p.X.Tick.Label, &p.Y.Tick.Label} {
		st.Font = font.From(chartFont, st.Font.Size)
	}
}

// addSpread draws a line's intervals (a vertical bar with caps from lo to hi at
// each point) and its repeats' box plots, moved sideways by off so the bars and
// boxes of several runs at one x stand beside each other.
func addSpread(p *plot.Plot, l Line, c color.RGBA, off vg.Length) error {
	if len(l.Lo) == len(l.Xs) {
		bars := &intervalBars{color: c, off: off}
		for i := range l.Xs {
			if !math.IsNaN(l.Lo[i]) && !math.IsNaN(l.Hi[i]) {
				bars.xs, bars.lo, bars.hi = append(bars.xs, l.Xs[i]), append(bars.lo, l.Lo[i]), append(bars.hi, l.Hi[i])
			}
		}
		if len(bars.xs) > 0 {
			p.Add(bars)
		}
	}
	for i, vs := range l.Boxes {
		if len(vs) < 2 || i >= len(l.Xs) {
			continue
		}
		bp, err := plotter.NewBoxPlot(vg.Points(10), l.Xs[i], plotter.Values(vs))
		if err != nil {
			return err
		}
		bp.Offset = off
		bp.BoxStyle.Color = c
		bp.WhiskerStyle.Color = c
		bp.MedianStyle.Color = c
		bp.GlyphStyle.Color = c
		p.Add(bp)
	}
	return nil
}

// intervalBars are vertical 95 % interval bars with caps, drawn off points to
// the side of their x.
type intervalBars struct {
	xs, lo, hi []float64
	color      color.RGBA
	off        vg.Length
}

func (b *intervalBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	st := draw.LineStyle{Color: b.color, Width: vg.Points(1.2)}
	cap := vg.Points(3)
	for i := range b.xs {
		x := trX(b.xs[i]) + b.off
		lo, hi := trY(b.lo[i]), trY(b.hi[i])
		c.StrokeLine2(st, x, lo, x, hi)
		c.StrokeLine2(st, x-cap, lo, x+cap, lo)
		c.StrokeLine2(st, x-cap, hi, x+cap, hi)
	}
}

// DataRange makes the axes hold the whole bars.
func (b *intervalBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = slices.Min(b.xs), slices.Max(b.xs)
	return xmin, xmax, slices.Min(b.lo), slices.Max(b.hi)
}

// inlineSVG drops what precedes the <svg> element (XML prolog, generator comment),
// which is not allowed inside HTML.
func inlineSVG(s string) string {
	if i := strings.Index(s, "<svg"); i > 0 {
		s = s[i:]
	}
	return strings.TrimSpace(s)
}

// addReferences draws the horizontal reference lines across the data's x range and
// the marked points. They are added after the data so the x range is known.
func addReferences(p *plot.Plot, leg *plot.Legend, o Options) error {
	for i, r := range o.HLines {
		ln, err := plotter.NewLine(plotter.XYs{{X: p.X.Min, Y: r.Y}, {X: p.X.Max, Y: r.Y}})
		if err != nil {
			return err
		}
		ln.Color = color.RGBA{0xa1, 0x14, 0x0a, 0xff}
		ln.Width = vg.Points(1.2)
		ln.Dashes = []vg.Length{vg.Points(2 + 2*float64(i)), vg.Points(2)}
		p.Add(ln)
		leg.Add(r.Name, ln)
	}
	for _, m := range o.Marks {
		sc, err := plotter.NewScatter(plotter.XYs{{X: m.X, Y: m.Y}})
		if err != nil {
			return err
		}
		sc.Shape = draw.RingGlyph{}
		sc.Radius = vg.Points(7)
		sc.Color = color.RGBA{0xa1, 0x14, 0x0a, 0xff}
		lb, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: m.X, Y: m.Y}}, Labels: []string{m.Label}})
		if err != nil {
			return err
		}
		lb.TextStyle[0].Font = font.From(chartFont, lb.TextStyle[0].Font.Size)
		// Beside the point on the side with room: a label running past the data's
		// end would stretch the axis to make room for it.
		if m.X > (p.X.Min+p.X.Max)/2 {
			lb.TextStyle[0].XAlign = text.XRight
			lb.Offset = vg.Point{X: -vg.Points(10), Y: vg.Points(6)}
		} else {
			lb.Offset = vg.Point{X: vg.Points(10), Y: vg.Points(6)}
		}
		p.Add(sc, lb)
	}
	return nil
}

// roundTicks put the axis's labelled ticks at round numbers, steps of 1, 2 or 5
// times a power of ten (0, 2, 4, 6; 0, 0.5, 1), about five of them, labelled with
// only the decimals the step needs.
type roundTicks struct{}

func (roundTicks) Ticks(lo, hi float64) []plot.Tick {
	step := roundStep(hi - lo)
	digits := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	var ts []plot.Tick
	for v := math.Ceil(lo/step-1e-9) * step; v <= hi+step*1e-9; v += step {
		label := strconv.FormatFloat(v, 'f', digits, 64)
		if math.Abs(v) < step*1e-9 {
			v, label = 0, "0"
		}
		ts = append(ts, plot.Tick{Value: v, Label: label})
	}
	return ts
}

// roundStep is the round step that cuts span into about five parts.
func roundStep(span float64) float64 {
	if span <= 0 || math.IsNaN(span) || math.IsInf(span, 0) {
		return 1
	}
	raw := span / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, f := range []float64{1, 2, 5, 10} {
		if f*mag >= raw*0.999 {
			return f * mag
		}
	}
	return 10 * mag
}

// maxValueTicks bounds the labelled ticks of valueTicks: beyond it every other
// Value goes unlabelled so the labels do not run into each other.
const maxValueTicks = 16

// valueTicks ticks the axis at exactly these values (a ramp's user counts),
// labelled as integers.
func valueTicks(vs []float64, name func(float64) string) plot.Ticker {
	if name == nil {
		name = func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	}
	uniq := uniqueSorted(vs)
	every := (len(uniq) + maxValueTicks - 1) / maxValueTicks
	var ts plot.ConstantTicks
	for i, v := range uniq {
		label := ""
		if i%every == 0 || i == len(uniq)-1 {
			label = name(v)
		}
		ts = append(ts, plot.Tick{Value: v, Label: label})
	}
	return ts
}

// doubling tells whether sorted positive user counts grow by about a factor at
// every step (2, 4, 8, 16), where a linear axis crowds the small levels into its
// left edge and a log axis spaces them evenly.
func doubling(users []float64) bool {
	if len(users) < 3 {
		return false
	}
	for i := 1; i < len(users); i++ {
		if users[i-1] <= 0 || users[i]/users[i-1] < 1.8 {
			return false
		}
	}
	return true
}

// TicksAt ticks x at xs only (a ramp's user counts), on a log scale when they double
// from one to the next.
func TicksAt(xs []float64) Options {
	return Options{XTicks: xs, LogX: doubling(uniqueSorted(xs))}
}

func uniqueSorted(vs []float64) []float64 {
	return slices.Compact(slices.Sorted(slices.Values(vs)))
}
