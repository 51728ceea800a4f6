package results

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
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

// chartOptions are what a chart shows beyond its lines.
type chartOptions struct {
	// xTicks, when set, are the only x ticks (the steps' user counts), labelled
	// as integers.
	xTicks []float64
	// logX draws x on a log scale (user counts that double at every step).
	logX bool
	// hlines are horizontal reference lines, e.g. a limit.
	hlines []refLine
	// marks are highlighted points with a label, e.g. the maximum found.
	marks []markPoint
}

// refLine is a horizontal line at y, named in the legend.
type refLine struct {
	y    float64
	name string
}

// markPoint is a point drawn large, with its label next to it.
type markPoint struct {
	x, y  float64
	label string
}

// line is one series of a chart.
type line struct {
	name   string
	xs, ys []float64
	dashed bool
	color  int // palette index; lines of one run share a colour
}

// palette is colour-blind friendly (Okabe-Ito), so runs stay apart in print too.
var palette = [...]color.RGBA{
	{0x00, 0x72, 0xB2, 0xff}, {0xD5, 0x5E, 0x00, 0xff}, {0x00, 0x9E, 0x73, 0xff},
	{0xCC, 0x79, 0xA7, 0xff}, {0xE6, 0x9F, 0x00, 0xff}, {0x56, 0xB4, 0xE9, 0xff},
	{0x00, 0x00, 0x00, 0xff}, {0xF0, 0xE4, 0x42, 0xff},
}

// lineChartSVG draws the lines with gonum/plot and returns an <svg> element ready
// to be inlined into HTML (no XML prolog). Lines with fewer than one point are
// skipped; a chart with no line at all says so instead of drawing empty axes.
func lineChartSVG(title, xLabel, yLabel string, lines []line) (string, error) {
	return lineChartSVGWith(title, xLabel, yLabel, lines, chartOptions{})
}

// lineChartSVGWith is lineChartSVG with ticks, scale, reference lines and marks.
func lineChartSVGWith(title, xLabel, yLabel string, lines []line, o chartOptions) (string, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Y.Min = 0
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())
	drawn := 0
	for _, l := range lines {
		if len(l.xs) == 0 {
			continue
		}
		pts := make(plotter.XYs, len(l.xs))
		for i := range l.xs {
			pts[i].X, pts[i].Y = l.xs[i], l.ys[i]
		}
		ln, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return "", fmt.Errorf("chart %q: %w", title, err)
		}
		c := palette[l.color%len(palette)]
		ln.Color, sc.Color = c, c
		ln.Width = vg.Points(1.5)
		if l.dashed {
			ln.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		sc.Shape = draw.CircleGlyph{}
		sc.Radius = vg.Points(2.5)
		p.Add(ln, sc)
		p.Legend.Add(l.name, ln, sc)
		drawn++
	}
	if drawn == 0 {
		return "", nil
	}
	if err := addReferences(p, o); err != nil {
		return "", fmt.Errorf("chart %q: %w", title, err)
	}
	// Room around the data, so the end points and the top of the curve are not cut
	// by the frame, and the legend (top left) does not sit on the first points.
	if o.logX && p.X.Min > 0 {
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
	p.Y.Max *= 1.25
	if p.Y.Max == 0 {
		p.Y.Max = 1
	}
	if len(o.xTicks) > 0 {
		p.X.Tick.Marker = valueTicks(o.xTicks)
	} else {
		p.X.Tick.Marker = plainTicks{}
	}
	p.Y.Tick.Marker = plainTicks{}
	canvas := vgsvg.New(chartWidth, chartHeight)
	p.Draw(draw.New(canvas))
	var buf bytes.Buffer
	if _, err := canvas.WriteTo(&buf); err != nil {
		return "", fmt.Errorf("chart %q: %w", title, err)
	}
	return inlineSVG(buf.String()), nil
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
func addReferences(p *plot.Plot, o chartOptions) error {
	for i, r := range o.hlines {
		ln, err := plotter.NewLine(plotter.XYs{{X: p.X.Min, Y: r.y}, {X: p.X.Max, Y: r.y}})
		if err != nil {
			return err
		}
		ln.Color = color.RGBA{0xa1, 0x14, 0x0a, 0xff}
		ln.Width = vg.Points(1.2)
		ln.Dashes = []vg.Length{vg.Points(2 + 2*float64(i)), vg.Points(2)}
		p.Add(ln)
		p.Legend.Add(r.name, ln)
	}
	for _, m := range o.marks {
		sc, err := plotter.NewScatter(plotter.XYs{{X: m.x, Y: m.y}})
		if err != nil {
			return err
		}
		sc.Shape = draw.RingGlyph{}
		sc.Radius = vg.Points(7)
		sc.Color = color.RGBA{0xa1, 0x14, 0x0a, 0xff}
		lb, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: m.x, Y: m.y}}, Labels: []string{m.label}})
		if err != nil {
			return err
		}
		// Beside the point on the side with room: a label running past the data's
		// end would stretch the axis to make room for it.
		if m.x > (p.X.Min+p.X.Max)/2 {
			lb.TextStyle[0].XAlign = text.XRight
			lb.Offset = vg.Point{X: -vg.Points(10), Y: vg.Points(6)}
		} else {
			lb.Offset = vg.Point{X: vg.Points(10), Y: vg.Points(6)}
		}
		p.Add(sc, lb)
	}
	return nil
}

// plainTicks are gonum's default tick positions with labels that carry only the
// decimals the tick spacing needs: "750", not "750.00"; "0.25", not "0.250".
type plainTicks struct{}

func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	var labelled []float64
	for _, t := range ticks {
		if t.Label != "" {
			labelled = append(labelled, t.Value)
		}
	}
	digits := 0
	if len(labelled) > 1 {
		step := math.Abs(labelled[1] - labelled[0])
		if step > 0 && step < 1 {
			digits = int(math.Ceil(-math.Log10(step) - 1e-9))
		}
	}
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'f', digits, 64)
		}
	}
	return ticks
}

// maxValueTicks bounds the labelled ticks of valueTicks: beyond it every other
// value goes unlabelled so the labels do not run into each other.
const maxValueTicks = 16

// valueTicks ticks the axis at exactly these values (a ramp's user counts),
// labelled as integers.
func valueTicks(vs []float64) plot.Ticker {
	uniq := uniqueSorted(vs)
	every := (len(uniq) + maxValueTicks - 1) / maxValueTicks
	var ts plot.ConstantTicks
	for i, v := range uniq {
		label := ""
		if i%every == 0 || i == len(uniq)-1 {
			label = strconv.FormatFloat(v, 'f', -1, 64)
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
