package chart_test

import (
	"fmt"
	"os"

	"github.com/cleanex/cleanex/internal/chart"
)

// textCanvas is a Canvas that prints the text it is asked to draw and
// ignores everything else.
type textCanvas struct{ *chart.SVGCanvas }

func (textCanvas) FillText(s string, x, y float64) { fmt.Printf("%q ", s) }
func (textCanvas) MeasureText(s string) float64    { return 6.5 * float64(len(s)) }

func ExampleAccuracyChart_Draw() {
	ks := []float64{2, 5, 10, 20, 50, 100}
	ch := &chart.AccuracyChart{
		Width: 640, Height: 360, LogX: true, K1: 10, K2: 100,
		Series: []chart.Series{
			{Name: "observed", X: ks[:3], Y: []float64{0.97, 0.91, 0.85}},
			{Name: "cleanex", X: ks, Y: []float64{0.97, 0.91, 0.85, 0.78, 0.69, 0.62}},
		},
	}
	c := textCanvas{chart.NewSVGCanvas(640, 360)}
	if err := ch.Draw(c); err != nil {
		fmt.Println(err)
	}
	// Output:
	// "2" "5" "10" "20" "50" "100" "0.5" "0.6" "0.7" "0.8" "0.9" "1" "number of classes k" "accuracy" "k1 = 10" "k2 = 100" "observed" "cleanex"
}

func ExampleSVGCanvas() {
	ch := &chart.ROCChart{Width: 400, Height: 300, Series: []chart.Series{
		{Name: "plugin", X: []float64{0, 0.1, 0.4, 1}, Y: []float64{0, 0.5, 0.9, 1}},
	}}
	svg := chart.NewSVGCanvas(400, 300)
	if err := ch.Draw(svg); err != nil {
		fmt.Println(err)
		return
	}
	if _, err := svg.WriteTo(os.Stdout); err != nil {
		fmt.Println(err)
	}
}

func ExampleColor() {
	fmt.Println(chart.Color("cleanex"), chart.Color("truth"), chart.Color("something else"))
	// Output: #d55e00 #000000 #cc79a7
}
