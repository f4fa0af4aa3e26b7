package chart

import "testing"

// nop is a Canvas that does nothing, so benchmarks measure the charts' own
// work (scaling, thinning, layout) and not a recorder's.
type nop struct{}

func (nop) SetStrokeStyle(string)                           {}
func (nop) SetFillStyle(string)                             {}
func (nop) SetLineWidth(float64)                            {}
func (nop) SetLineDash([]float64)                           {}
func (nop) SetFont(string)                                  {}
func (nop) SetTextAlign(string)                             {}
func (nop) SetTextBaseline(string)                          {}
func (nop) Save()                                           {}
func (nop) Restore()                                        {}
func (nop) Translate(float64, float64)                      {}
func (nop) Rotate(float64)                                  {}
func (nop) BeginPath()                                      {}
func (nop) MoveTo(float64, float64)                         {}
func (nop) LineTo(float64, float64)                         {}
func (nop) Rect(float64, float64, float64, float64)         {}
func (nop) Arc(float64, float64, float64, float64, float64) {}
func (nop) Clip()                                           {}
func (nop) Stroke()                                         {}
func (nop) Fill()                                           {}
func (nop) FillRect(float64, float64, float64, float64)     {}
func (nop) ClearRect(float64, float64, float64, float64)    {}
func (nop) FillText(string, float64, float64)               {}
func (nop) MeasureText(s string) float64                    { return 6.5 * float64(len(s)) }
func (nop) Err() error                                      { return nil }

// BenchmarkAccuracyChart draws 6 series of 20000 points on a log-x axis.
func BenchmarkAccuracyChart(b *testing.B) {
	var ss []Series
	for i, name := range []string{"observed", "plugin", "kde", "regression", "cleanex", "truth"} {
		x, y := curve(20001, 1.06+0.01*float64(i), 0.09)
		ss = append(ss, Series{Name: name, X: x, Y: y, Dashed: name == "truth"})
	}
	ch := &AccuracyChart{Width: 900, Height: 500, LogX: true, Series: ss, K1: 1000}
	for b.Loop() {
		if err := ch.Draw(nop{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLossChart redraws a loss curve of 10^5 steps, as during training.
func BenchmarkLossChart(b *testing.B) {
	x, y := loss(100000)
	ch := &LossChart{Width: 480, Height: 300, XMax: 100000, Series: []Series{{Name: "cleanex", X: x, Y: y}}}
	for b.Loop() {
		if err := ch.Draw(nop{}); err != nil {
			b.Fatal(err)
		}
	}
}
