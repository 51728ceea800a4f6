package chart

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
)

func TestChartTicks(t *testing.T) {
	ticks := roundTicks{}.Ticks(0, 937.5)
	for _, tk := range ticks {
		if strings.Contains(tk.Label, ".") {
			t.Errorf("integer axis labelled %q", tk.Label)
		}
	}
	// The response-time axis that read "0, 2, 5, 8" (ticks at 2.5 labelled
	// without decimals): every tick is now a round value, labelled as it is.
	for _, span := range []float64{9.375, 0.9, 937.5, 12, 0.031, 4600} {
		var labels []string
		prev := math.NaN()
		for _, tk := range (roundTicks{}).Ticks(0, span) {
			v, err := strconv.ParseFloat(tk.Label, 64)
			if err != nil || math.Abs(v-tk.Value) > 1e-9*span {
				t.Errorf("span %g: tick %g labelled %q", span, tk.Value, tk.Label)
			}
			if strings.Contains(tk.Label, ".") && strings.HasSuffix(tk.Label, "0") {
				t.Errorf("span %g: trailing zero in %q", span, tk.Label)
			}
			if !math.IsNaN(prev) {
				step := tk.Value - prev
				mant := step / math.Pow(10, math.Floor(math.Log10(step)+1e-9))
				if math.Abs(mant-1) > 1e-6 && math.Abs(mant-2) > 1e-6 && math.Abs(mant-5) > 1e-6 {
					t.Errorf("span %g: step %g is not 1, 2 or 5 times a power of ten", span, step)
				}
			}
			prev = tk.Value
			labels = append(labels, tk.Label)
		}
		if len(labels) < 3 || len(labels) > 8 {
			t.Errorf("span %g: ticks %v", span, labels)
		}
	}
	if !doubling([]float64{2, 4, 8, 16}) || doubling([]float64{50, 100, 150, 200}) || doubling([]float64{2, 4}) {
		t.Error("doubling")
	}
	vt := valueTicks([]float64{16, 2, 4, 8, 4}, nil).Ticks(0, 0)
	var got []string
	for _, tk := range vt {
		got = append(got, tk.Label)
	}
	if strings.Join(got, ",") != "2,4,8,16" {
		t.Errorf("user ticks %v", got)
	}
}

// TestSegments: a line breaks where its breaks say, so a time series is not drawn
// across a gap in its samples.
func TestSegments(t *testing.T) {
	if segs := segments(make(plotter.XYs, 6), []int{3}); len(segs) != 2 || len(segs[0]) != 3 || len(segs[1]) != 3 {
		t.Errorf("segments %v", segs)
	}
	if segs := segments(make(plotter.XYs, 6), []int{0, 6, 9}); len(segs) != 1 || len(segs[0]) != 6 {
		t.Errorf("breaks at the ends or beyond: segments %v", segs)
	}
}

// TestDashedLineHasHollowPoints: a dashed series of the same colour as a solid one
// (a run's p95 beside its average) tells itself apart by its points too: at one user
// count there is no line to carry the dashes.
func TestDashedLineHasHollowPoints(t *testing.T) {
	svg, err := SVG("Response time", "users", "ms", []Line{
		{Name: "average", Xs: []float64{8}, Ys: []float64{18}},
		{Name: "p95", Xs: []float64{8}, Ys: []float64{60}, Dashed: true},
	}, Options{XTicks: []float64{8}})
	if err != nil {
		t.Fatal(err)
	}
	if filled, hollow := strings.Count(svg, `Z" style="fill:#0072B2"`), strings.Count(svg, `Z" style="fill:none;stroke:#0072B2`); filled == 0 || hollow == 0 {
		t.Errorf("one colour, solid and dashed: %d filled and %d hollow points (legend included); want both", filled, hollow)
	}
}
