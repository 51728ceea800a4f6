package results

import (
	"bytes"
	"fmt"
	"image/color"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Chart size is fixed so that the SVG, and with it the golden files, depend only
// on the data.
const (
	chartWidth  = 16 * vg.Centimeter
	chartHeight = 9 * vg.Centimeter
)

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
	// Room around the data, so the end points and the top of the curve are not cut
	// by the frame, and the legend (top left) does not sit on the first points.
	xspan := p.X.Max - p.X.Min
	if xspan == 0 {
		xspan = 1
	}
	p.X.Min -= 0.06 * xspan
	p.X.Max += 0.06 * xspan
	p.Y.Max *= 1.25
	if p.Y.Max == 0 {
		p.Y.Max = 1
	}
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
