package chart

import (
	"fmt"
	"math"
	"unicode/utf8"
)

// recorder is a Canvas that records every call, for tests. It measures text
// as 6.5 px per character and fails (through err) on any non-finite number.
type recorder struct {
	ops     []op
	stroke  string
	fill    string
	dash    []float64
	path    [][]pt // sub-paths of the current path
	clip    []pt   // corners of the last Rect clipped to
	strokes []stroked
	fills   []stroked // filled paths, with the fill colour as color
	texts   []text
	font    string // the current font, textAlign and textBaseline
	align   string
	base    string
	saved   [][]pt // clip at each Save
	err     error
}

type op struct {
	name string
	args []float64
	s    string
}

type pt struct{ x, y float64 }

// stroked is a path that was stroked, with its style.
type stroked struct {
	color  string
	dashed bool
	subs   [][]pt
	clip   []pt
}

type text struct {
	s    string
	x, y float64
	fill string
	// font, align and base are the font, textAlign and textBaseline it
	// was drawn with.
	font, align, base string
}

func (r *recorder) rec(name, s string, args ...float64) {
	for _, a := range args {
		if math.IsNaN(a) || math.IsInf(a, 0) {
			if r.err == nil {
				r.err = fmt.Errorf("%s(%q, %v): non-finite argument", name, s, args)
			}
		}
	}
	r.ops = append(r.ops, op{name, args, s})
}

func (r *recorder) SetStrokeStyle(c string)  { r.rec("strokeStyle", c); r.stroke = c }
func (r *recorder) SetFillStyle(c string)    { r.rec("fillStyle", c); r.fill = c }
func (r *recorder) SetLineWidth(w float64)   { r.rec("lineWidth", "", w) }
func (r *recorder) SetLineDash(d []float64)  { r.rec("lineDash", "", d...); r.dash = d }
func (r *recorder) SetFont(f string)         { r.rec("font", f); r.font = f }
func (r *recorder) SetTextAlign(a string)    { r.rec("textAlign", a); r.align = a }
func (r *recorder) SetTextBaseline(b string) { r.rec("textBaseline", b); r.base = b }
func (r *recorder) Save()                    { r.rec("save", ""); r.saved = append(r.saved, r.clip) }
func (r *recorder) Restore() {
	r.rec("restore", "")
	if n := len(r.saved); n > 0 {
		r.clip, r.saved = r.saved[n-1], r.saved[:n-1]
	} else if r.err == nil {
		r.err = fmt.Errorf("restore without save")
	}
}
func (r *recorder) Translate(x, y float64) { r.rec("translate", "", x, y) }
func (r *recorder) Rotate(a float64)       { r.rec("rotate", "", a) }
func (r *recorder) BeginPath()             { r.rec("beginPath", ""); r.path = nil }
func (r *recorder) MoveTo(x, y float64) {
	r.rec("moveTo", "", x, y)
	r.path = append(r.path, []pt{{x, y}})
}
func (r *recorder) LineTo(x, y float64) {
	r.rec("lineTo", "", x, y)
	if len(r.path) == 0 {
		r.path = append(r.path, nil)
	}
	r.path[len(r.path)-1] = append(r.path[len(r.path)-1], pt{x, y})
}
func (r *recorder) Rect(x, y, w, h float64) {
	r.rec("rect", "", x, y, w, h)
	r.path = append(r.path, []pt{{x, y}, {x + w, y + h}})
}
func (r *recorder) Arc(x, y, rad, a, b float64) { r.rec("arc", "", x, y, rad, a, b) }
func (r *recorder) Clip() {
	r.rec("clip", "")
	if len(r.path) == 1 {
		r.clip = r.path[0]
	}
}
func (r *recorder) Stroke() {
	r.rec("stroke", "")
	r.strokes = append(r.strokes, stroked{r.stroke, len(r.dash) > 0, r.path, r.clip})
}
func (r *recorder) Fill() {
	r.rec("fill", "")
	r.fills = append(r.fills, stroked{r.fill, false, r.path, r.clip})
}
func (r *recorder) FillRect(x, y, w, h float64)  { r.rec("fillRect", "", x, y, w, h) }
func (r *recorder) ClearRect(x, y, w, h float64) { r.rec("clearRect", "", x, y, w, h) }
func (r *recorder) FillText(s string, x, y float64) {
	r.rec("fillText", s, x, y)
	r.texts = append(r.texts, text{s, x, y, r.fill, r.font, r.align, r.base})
}
func (r *recorder) MeasureText(s string) float64 { return 6.5 * float64(utf8.RuneCountInString(s)) }
func (r *recorder) Err() error                   { return r.err }

// strokesOf returns the stroked paths drawn in colour c.
func (r *recorder) strokesOf(c string) []stroked {
	var out []stroked
	for _, s := range r.strokes {
		if s.color == c {
			out = append(out, s)
		}
	}
	return out
}

// textCount returns how many times s was drawn as text.
func (r *recorder) textCount(s string) int {
	n := 0
	for _, t := range r.texts {
		if t.s == s {
			n++
		}
	}
	return n
}

// box returns the rectangle that text t covers, as the recorder measures
// it (6.5 px per character) and as tall as its font's size in pixels. It
// ignores transforms: the rotated y-axis title's box is wrong.
func (t text) box() rect {
	w := 6.5 * float64(utf8.RuneCountInString(t.s))
	h := 12.0
	if t.font == smallFont {
		h = 11
	}
	x0 := t.x
	switch t.align {
	case "center":
		x0 -= w / 2
	case "right":
		x0 -= w
	}
	y0 := t.y
	switch t.base {
	case "middle":
		y0 -= h / 2
	case "bottom", "alphabetic", "":
		y0 -= h
	}
	return rect{x0, y0, x0 + w, y0 + h}
}

// textOf returns the text s as drawn (the last time) and whether it was.
func (r *recorder) textOf(s string) (text, bool) {
	for i := len(r.texts) - 1; i >= 0; i-- {
		if r.texts[i].s == s {
			return r.texts[i], true
		}
	}
	return text{}, false
}
