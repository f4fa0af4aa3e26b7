package chart

import (
	"bytes"
	"encoding/xml"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"
)

var svgDir = flag.String("chart.svg", "", "directory to write the rendered test charts to, as SVG")

// TestRenderSVG draws the three charts for a realistic data set into SVG
// documents, checks they are well-formed XML, and writes them to
// -chart.svg=DIR when given, to look at.
func TestRenderSVG(t *testing.T) {
	rx, ry := roc(400, 3)
	px, py := roc(400, 2.5)
	lx, ly := loss(1500)
	acc := &AccuracyChart{Width: 720, Height: 420, LogX: true, Series: realistic(), K1: 100}
	lin := &AccuracyChart{Width: 720, Height: 420, Series: realistic(), K1: 100}
	est, band := estimateBand()
	withBand := &AccuracyChart{Width: 720, Height: 420, LogX: true, Series: append(realistic(), est), Bands: []Band{band}, K1: 100}
	type drawer interface{ Draw(Canvas) error }
	charts := map[string]struct {
		w, h float64
		d    drawer
	}{
		"accuracy":        {720, 420, acc},
		"accuracy-linear": {720, 420, lin},
		"accuracy-band":   {720, 420, withBand},
		"box": {600, 260, &BoxChart{Width: 600, Height: 260, YTitle: "error", ZeroLabel: "no error", Boxes: []Box{
			{Name: "plug-in", Color: methodColor("plugin"), Q: [5]float64{0.2, 0.25, 0.3, 0.35, 0.4}},
			{Name: "recommended", Color: ColorEstimate, Q: [5]float64{-0.04, -0.02, 0, 0.02, 0.04}, Bold: true}}}},
		"roc": {480, 420, &ROCChart{Width: 480, Height: 420, Series: []Series{
			{Name: "observed", X: rx, Y: ry}, {Name: "cleanex", X: px, Y: py}}}},
		"loss":  {480, 300, &LossChart{Width: 480, Height: 300, XMax: 2000, Series: []Series{{Name: "cleanex", X: lx, Y: ly}}}},
		"small": {320, 220, &AccuracyChart{Width: 320, Height: 220, LogX: true, Series: realistic(), K1: 100}},
	}
	for name, ch := range charts {
		svg := NewSVGCanvas(ch.w, ch.h)
		if err := ch.d.Draw(svg); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if name == "accuracy" {
			if h, ok := acc.Hover(acc.last.xs.pix(500), 200); ok {
				if err := acc.DrawHover(svg, h); err != nil {
					t.Fatal(err)
				}
			}
		}
		var buf bytes.Buffer
		if _, err := svg.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		dec := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
		for {
			if _, err := dec.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("%s: SVG is not well-formed: %v", name, err)
			}
		}
		if *svgDir != "" {
			if err := os.WriteFile(filepath.Join(*svgDir, name+".svg"), buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
