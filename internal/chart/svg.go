package chart

import (
	"fmt"
	"html"
	"io"
	"math"
	"strconv"
	"strings"
)

// SVGCanvas is a Canvas that records the drawing as an SVG document, for
// exporting charts from the command line and for looking at them in tests.
// Text is measured approximately (0.55 em per character), so labels may sit
// a little differently than in a browser. The zero value is not usable; use
// NewSVGCanvas.
type SVGCanvas struct {
	w, h  float64
	st    svgState
	stack []svgState
	path  strings.Builder // current path in untransformed SVG coordinates
	defs  strings.Builder
	body  strings.Builder
	clips int
}

// svgState is the part of the drawing state that Save and Restore keep.
type svgState struct {
	stroke, fill, font, align, baseline string
	lineWidth                           float64
	dash                                []float64
	m                                   [6]float64 // transform a b c d e f: (x, y) -> (a x + c y + e, b x + d y + f)
	clip                                string     // id of the clipPath in force, or ""
}

// NewSVGCanvas returns an empty SVG canvas of w x h CSS pixels with the
// canvas defaults (black, 1 px lines, 10px sans-serif).
func NewSVGCanvas(w, h float64) *SVGCanvas {
	return &SVGCanvas{w: w, h: h, st: svgState{
		stroke: "#000000", fill: "#000000", font: "10px sans-serif", align: "left",
		baseline: "alphabetic", lineWidth: 1, m: [6]float64{1, 0, 0, 1, 0, 0},
	}}
}

// WriteTo writes the SVG document to w.
func (s *SVGCanvas) WriteTo(w io.Writer) (int64, error) {
	n, err := fmt.Fprintf(w, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" height=\"%s\" viewBox=\"0 0 %s %s\">\n<defs>\n%s</defs>\n%s</svg>\n",
		num(s.w), num(s.h), num(s.w), num(s.h), s.defs.String(), s.body.String())
	return int64(n), err
}

// num formats a coordinate with at most two decimals.
func num(v float64) string {
	return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
}

// pt applies the current transform to (x, y).
func (s *SVGCanvas) pt(x, y float64) (float64, float64) {
	m := s.st.m
	return m[0]*x + m[2]*y + m[4], m[1]*x + m[3]*y + m[5]
}

// SetStrokeStyle implements Canvas.
func (s *SVGCanvas) SetStrokeStyle(css string) { s.st.stroke = css }

// SetFillStyle implements Canvas.
func (s *SVGCanvas) SetFillStyle(css string) { s.st.fill = css }

// SetLineWidth implements Canvas.
func (s *SVGCanvas) SetLineWidth(w float64) { s.st.lineWidth = w }

// SetLineDash implements Canvas.
func (s *SVGCanvas) SetLineDash(seg []float64) { s.st.dash = append([]float64(nil), seg...) }

// SetFont implements Canvas.
func (s *SVGCanvas) SetFont(css string) { s.st.font = css }

// SetTextAlign implements Canvas.
func (s *SVGCanvas) SetTextAlign(a string) { s.st.align = a }

// SetTextBaseline implements Canvas.
func (s *SVGCanvas) SetTextBaseline(b string) { s.st.baseline = b }

// Save implements Canvas.
func (s *SVGCanvas) Save() {
	st := s.st
	st.dash = append([]float64(nil), s.st.dash...)
	s.stack = append(s.stack, st)
}

// Restore implements Canvas; it does nothing without a matching Save.
func (s *SVGCanvas) Restore() {
	if n := len(s.stack); n > 0 {
		s.st, s.stack = s.stack[n-1], s.stack[:n-1]
	}
}

// Translate implements Canvas.
func (s *SVGCanvas) Translate(x, y float64) {
	m := &s.st.m
	m[4], m[5] = m[0]*x+m[2]*y+m[4], m[1]*x+m[3]*y+m[5]
}

// Rotate implements Canvas.
func (s *SVGCanvas) Rotate(a float64) {
	m := &s.st.m
	sin, cos := math.Sincos(a)
	m[0], m[1], m[2], m[3] = m[0]*cos+m[2]*sin, m[1]*cos+m[3]*sin, m[2]*cos-m[0]*sin, m[3]*cos-m[1]*sin
}

// BeginPath implements Canvas.
func (s *SVGCanvas) BeginPath() { s.path.Reset() }

// MoveTo implements Canvas.
func (s *SVGCanvas) MoveTo(x, y float64) {
	x, y = s.pt(x, y)
	fmt.Fprintf(&s.path, "M%s %s", num(x), num(y))
}

// LineTo implements Canvas.
func (s *SVGCanvas) LineTo(x, y float64) {
	x, y = s.pt(x, y)
	fmt.Fprintf(&s.path, "L%s %s", num(x), num(y))
}

// Rect implements Canvas.
func (s *SVGCanvas) Rect(x, y, w, h float64) {
	s.MoveTo(x, y)
	s.LineTo(x+w, y)
	s.LineTo(x+w, y+h)
	s.LineTo(x, y+h)
	s.path.WriteString("Z")
}

// Arc implements Canvas, approximating the arc by a polygon of 32 sides per
// turn; it joins the current point with a line as the canvas does.
func (s *SVGCanvas) Arc(x, y, r, start, end float64) {
	n := int(math.Ceil(math.Abs(end-start) / (2 * math.Pi) * 32))
	for i := 0; i <= n; i++ {
		a := start + (end-start)*float64(i)/float64(max(n, 1))
		px, py := x+r*math.Cos(a), y+r*math.Sin(a)
		if i == 0 && s.path.Len() == 0 {
			s.MoveTo(px, py)
		} else {
			s.LineTo(px, py)
		}
	}
}

// Clip implements Canvas with a clipPath holding the current path (nested in
// the clip already in force).
func (s *SVGCanvas) Clip() {
	s.clips++
	id := "c" + strconv.Itoa(s.clips)
	fmt.Fprintf(&s.defs, "<clipPath id=\"%s\"%s><path d=\"%s\"/></clipPath>\n", id, s.clipAttr(), s.path.String())
	s.st.clip = id
}

// clipAttr returns the clip-path attribute for the clip in force.
func (s *SVGCanvas) clipAttr() string {
	if s.st.clip == "" {
		return ""
	}
	return " clip-path=\"url(#" + s.st.clip + ")\""
}

// Stroke implements Canvas.
func (s *SVGCanvas) Stroke() {
	if s.path.Len() == 0 {
		return
	}
	dash := ""
	if len(s.st.dash) > 0 {
		parts := make([]string, len(s.st.dash))
		for i, d := range s.st.dash {
			parts[i] = num(d)
		}
		dash = " stroke-dasharray=\"" + strings.Join(parts, " ") + "\""
	}
	fmt.Fprintf(&s.body, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" stroke-linejoin=\"round\"%s%s/>\n",
		s.path.String(), html.EscapeString(s.st.stroke), num(s.st.lineWidth), dash, s.clipAttr())
}

// Fill implements Canvas.
func (s *SVGCanvas) Fill() {
	if s.path.Len() == 0 {
		return
	}
	fmt.Fprintf(&s.body, "<path d=\"%s\" fill=\"%s\"%s/>\n", s.path.String(), html.EscapeString(s.st.fill), s.clipAttr())
}

// FillRect implements Canvas.
func (s *SVGCanvas) FillRect(x, y, w, h float64) {
	saved := s.path.String()
	s.path.Reset()
	s.Rect(x, y, w, h)
	s.Fill()
	s.path.Reset()
	s.path.WriteString(saved)
}

// ClearRect implements Canvas. SVG cannot erase, so clearing the whole
// canvas discards everything drawn so far and clearing a smaller rectangle
// paints it white.
func (s *SVGCanvas) ClearRect(x, y, w, h float64) {
	if x <= 0 && y <= 0 && x+w >= s.w && y+h >= s.h && s.st.m == [6]float64{1, 0, 0, 1, 0, 0} {
		s.body.Reset()
		return
	}
	fill := s.st.fill
	s.st.fill = "#ffffff"
	s.FillRect(x, y, w, h)
	s.st.fill = fill
}

// fontSize returns the pixel size in a CSS font shorthand (10 if none).
func (s *SVGCanvas) fontSize() float64 {
	for f := range strings.FieldsSeq(s.st.font) {
		if v, ok := strings.CutSuffix(f, "px"); ok {
			if px, err := strconv.ParseFloat(v, 64); err == nil && px > 0 {
				return px
			}
		}
	}
	return 10
}

// FillText implements Canvas.
func (s *SVGCanvas) FillText(text string, x, y float64) {
	fs := s.fontSize()
	switch s.st.baseline { // SVG's own baseline keywords vary between renderers
	case "top", "hanging":
		y += 0.8 * fs
	case "middle":
		y += 0.35 * fs
	case "bottom", "ideographic":
		y -= 0.2 * fs
	}
	anchor := map[string]string{"center": "middle", "right": "end", "end": "end"}[s.st.align]
	if anchor == "" {
		anchor = "start"
	}
	family := "sans-serif"
	if i := strings.Index(s.st.font, "px "); i >= 0 {
		family = strings.TrimSpace(s.st.font[i+3:])
	}
	m := s.st.m
	tr := ""
	if m != [6]float64{1, 0, 0, 1, 0, 0} {
		tr = fmt.Sprintf(" transform=\"matrix(%s %s %s %s %s %s)\"", num(m[0]), num(m[1]), num(m[2]), num(m[3]), num(m[4]), num(m[5]))
	}
	open, end := "", ""
	if s.st.clip != "" {
		open, end = "<g"+s.clipAttr()+">", "</g>"
	}
	fmt.Fprintf(&s.body, "%s<text x=\"%s\" y=\"%s\" font-size=\"%s\" font-family=\"%s\" text-anchor=\"%s\" fill=\"%s\"%s>%s</text>%s\n",
		open, num(x), num(y), num(fs), html.EscapeString(family), anchor, html.EscapeString(s.st.fill), tr, html.EscapeString(text), end)
}

// MeasureText implements Canvas with an estimate of 0.55 em per character.
func (s *SVGCanvas) MeasureText(text string) float64 {
	return 0.55 * s.fontSize() * float64(len([]rune(text)))
}

// Err implements Canvas; an SVGCanvas never fails while drawing.
func (s *SVGCanvas) Err() error { return nil }
