//go:build js && wasm

package jsdom

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/cleanex/cleanex/internal/chart"
)

// Canvas implements chart.Canvas over a CanvasRenderingContext2D. The first
// failing call is kept and reported by Err; later calls do nothing.
type Canvas struct {
	ctx Value
	err error
	// path holds MoveTo/LineTo calls not yet sent, as (op, x, y) triples
	// (op 0 = moveTo, 1 = lineTo); flush sends them in one call to the
	// page's cleanexPath helper (assets/draw.js), since one JavaScript call
	// per point makes a 2,000-point curve cost tens of milliseconds.
	path   []float64
	helper Value
	// Width and Height are the canvas's CSS size over its zoom (Zoom), the
	// chart's coordinate range.
	Width, Height float64
	dpr           float64 // devicePixelRatio of the backing store
}

var _ chart.Canvas = (*Canvas)(nil)

// NewCanvas prepares the <canvas> element el for drawing at its laid-out CSS
// size: its backing store is sized to CSS size x devicePixelRatio and the
// context is scaled by that ratio, so lines and text are sharp on high-DPI
// screens. Call it again after a resize.
func NewCanvas(el Value) (*Canvas, error) {
	w, h, pw, ph, dpr := backingSize(el)
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("canvas has no size (%gx%g): is it hidden?", w, h)
	}
	if int(Float(el, "width", 0)) != pw {
		if err := el.Set("width", pw); err != nil {
			return nil, err
		}
	}
	if int(Float(el, "height", 0)) != ph {
		if err := el.Set("height", ph); err != nil {
			return nil, err
		}
	}
	c, err := newCanvas(el, w, h, dpr)
	if c == nil {
		return nil, err
	}
	c.ClearRect(0, 0, w, h)
	return c, c.err
}

// backingSize returns the laid-out CSS size w x h of the <canvas> element el
// and the size pw x ph its backing store must have for the screen's
// devicePixelRatio dpr.
func backingSize(el Value) (w, h float64, pw, ph int, dpr float64) {
	w = Float(el, "clientWidth", 0)
	h = Float(el, "clientHeight", 0)
	dpr = DevicePixelRatio()
	return w, h, int(math.Round(w * dpr)), int(math.Round(h * dpr)), dpr
}

// newCanvas returns a Canvas drawing on the sized <canvas> element el, of w x h
// CSS pixels, its context scaled by dpr.
func newCanvas(el Value, w, h, dpr float64) (*Canvas, error) {
	ctx, err := el.Call("getContext", "2d")
	if err != nil {
		return nil, err
	}
	if ctx.IsNull() {
		return nil, fmt.Errorf("canvas has no 2D context")
	}
	c := &Canvas{ctx: ctx, Width: w, Height: h, dpr: dpr}
	if f, err := Global().Get("cleanexPath"); err == nil && IsFunction(f) {
		c.helper = f
	}
	c.call("setTransform", dpr, 0, 0, dpr, 0, 0)
	return c, c.err
}

// NewDetachedCanvas returns a new <canvas> element that is not on the page,
// of w x h CSS pixels (its backing store w·s x h·s device pixels with
// s = max(dpr, minScale): at least minScale, for an image sharp enough for
// slides, else as NewCanvas sizes one on the page), and a Canvas drawing on
// it, for an image drawn apart from what the page shows (an export).
func NewDetachedCanvas(w, h, minScale float64) (Value, *Canvas, error) {
	if !(w > 0 && h > 0) {
		return Value{}, nil, fmt.Errorf("canvas size %gx%g", w, h)
	}
	doc, err := Path(Global(), "document")
	if err != nil {
		return Value{}, nil, err
	}
	el, err := doc.Call("createElement", "canvas")
	if err != nil {
		return Value{}, nil, err
	}
	dpr := max(DevicePixelRatio(), minScale)
	if err := el.Set("width", int(math.Round(w*dpr))); err != nil {
		return el, nil, err
	}
	if err := el.Set("height", int(math.Round(h*dpr))); err != nil {
		return el, nil, err
	}
	c, err := newCanvas(el, w, h, dpr)
	return el, c, err
}

// Zoom makes what is drawn next f times larger: the context's scale becomes
// devicePixelRatio·f and Width and Height become the CSS size over f, so a
// chart drawn to them fills the canvas with its text and lines f times their
// size (the page's presentation mode). A pointer position in CSS pixels is
// divided by f to be in the chart's coordinates. f must be positive; 1 does
// nothing.
func (c *Canvas) Zoom(f float64) {
	if f == 1 || !(f > 0) {
		return
	}
	c.Width, c.Height = c.Width/f, c.Height/f
	c.call("setTransform", c.dpr*f, 0, 0, c.dpr*f, 0, 0)
}

func (c *Canvas) call(m string, args ...any) Value {
	c.flush()
	if c.err != nil {
		return Value{}
	}
	v, err := c.ctx.Call(m, args...)
	if err != nil {
		c.err = fmt.Errorf("canvas %s: %w", m, err)
	}
	return v
}

func (c *Canvas) set(p string, v any) {
	c.flush()
	if c.err != nil {
		return
	}
	if err := c.ctx.Set(p, v); err != nil {
		c.err = fmt.Errorf("canvas %s: %w", p, err)
	}
}

// SetStrokeStyle sets strokeStyle.
func (c *Canvas) SetStrokeStyle(css string) { c.set("strokeStyle", css) }

// SetFillStyle sets fillStyle.
func (c *Canvas) SetFillStyle(css string) { c.set("fillStyle", css) }

// SetLineWidth sets lineWidth.
func (c *Canvas) SetLineWidth(w float64) { c.set("lineWidth", w) }

// SetLineDash calls setLineDash.
func (c *Canvas) SetLineDash(segments []float64) {
	a := make([]any, len(segments))
	for i, s := range segments {
		a[i] = s
	}
	c.call("setLineDash", a)
}

// SetFont sets font.
func (c *Canvas) SetFont(css string) { c.set("font", css) }

// SetTextAlign sets textAlign.
func (c *Canvas) SetTextAlign(align string) { c.set("textAlign", align) }

// SetTextBaseline sets textBaseline.
func (c *Canvas) SetTextBaseline(baseline string) { c.set("textBaseline", baseline) }

// Save calls save.
func (c *Canvas) Save() { c.call("save") }

// Restore calls restore.
func (c *Canvas) Restore() { c.call("restore") }

// Translate calls translate.
func (c *Canvas) Translate(x, y float64) { c.call("translate", x, y) }

// Rotate calls rotate.
func (c *Canvas) Rotate(angle float64) { c.call("rotate", angle) }

// BeginPath calls beginPath.
func (c *Canvas) BeginPath() { c.call("beginPath") }

// MoveTo calls moveTo (batched).
func (c *Canvas) MoveTo(x, y float64) { c.pathOp(0, x, y) }

// LineTo calls lineTo (batched).
func (c *Canvas) LineTo(x, y float64) { c.pathOp(1, x, y) }

func (c *Canvas) pathOp(op, x, y float64) {
	if c.helper.IsUndefined() || c.helper.IsNull() {
		if op == 0 {
			c.call("moveTo", x, y)
		} else {
			c.call("lineTo", x, y)
		}
		return
	}
	c.path = append(c.path, op, x, y)
}

// flush sends the batched path points in one call.
func (c *Canvas) flush() {
	if len(c.path) == 0 || c.err != nil {
		c.path = c.path[:0]
		return
	}
	b := make([]byte, 8*len(c.path))
	for i, v := range c.path {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
	}
	c.path = c.path[:0]
	u8, err := BytesToJS(b)
	if err == nil {
		_, err = c.helper.Invoke(c.ctx, u8)
	}
	if err != nil {
		c.err = fmt.Errorf("canvas path: %w", err)
	}
}

// Rect calls rect.
func (c *Canvas) Rect(x, y, w, h float64) { c.call("rect", x, y, w, h) }

// Arc calls arc.
func (c *Canvas) Arc(x, y, r, start, end float64) { c.call("arc", x, y, r, start, end) }

// Clip calls clip.
func (c *Canvas) Clip() { c.call("clip") }

// Stroke calls stroke.
func (c *Canvas) Stroke() { c.call("stroke") }

// Fill calls fill.
func (c *Canvas) Fill() { c.call("fill") }

// FillRect calls fillRect.
func (c *Canvas) FillRect(x, y, w, h float64) { c.call("fillRect", x, y, w, h) }

// ClearRect calls clearRect.
func (c *Canvas) ClearRect(x, y, w, h float64) { c.call("clearRect", x, y, w, h) }

// FillText calls fillText.
func (c *Canvas) FillText(s string, x, y float64) { c.call("fillText", s, x, y) }

// MeasureText returns measureText(s).width.
func (c *Canvas) MeasureText(s string) float64 {
	m := c.call("measureText", s)
	if c.err != nil {
		return 0
	}
	return Float(m, "width", 0)
}

// Err returns the first error met (after sending any batched path points).
func (c *Canvas) Err() error {
	c.flush()
	return c.err
}

// ToPNG returns the canvas element's content as a PNG Blob (canvas.toBlob).
func ToPNG(el Value) (Value, error) {
	type out struct {
		v   Value
		err error
	}
	ch := make(chan out, 1)
	f, err := funcOf(func(args []Value) {
		b := arg0(args)
		if b.IsNull() {
			ch <- out{err: fmt.Errorf("the canvas could not be encoded as PNG")}
			return
		}
		ch <- out{v: b}
	})
	if err != nil {
		return Value{}, err
	}
	defer f.Release()
	if _, err := el.Call("toBlob", f, "image/png"); err != nil {
		return Value{}, err
	}
	o := <-ch
	return o.v, o.err
}

// CanvasStale reports whether the <canvas> element el is laid out but its
// backing store no longer matches its CSS size x devicePixelRatio — it was
// resized, or a re-render reset it to the browser's default 300x150 and so
// cleared it — so it must be drawn again.
func CanvasStale(el Value) bool {
	w, h, pw, ph, _ := backingSize(el)
	if w <= 0 || h <= 0 {
		return false // hidden: nothing to draw until it is shown
	}
	return int(Float(el, "width", 0)) != pw || int(Float(el, "height", 0)) != ph
}
