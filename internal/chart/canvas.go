// Package chart draws the app's three charts — accuracy against the number of
// classes, the reversed ROC and CleaneX's training loss — onto an abstract 2D
// canvas. It is plain Go (no JavaScript): internal/jsdom implements Canvas
// over the browser's CanvasRenderingContext2D, SVGCanvas writes SVG, and the
// tests record the calls.
//
// All coordinates are CSS pixels with the origin at the top-left corner of the
// chart and y growing downwards. A chart of Width x Height draws inside
// [0, Width] x [0, Height]; the caller handles devicePixelRatio by scaling the
// real context (ctx.scale(dpr, dpr) on a canvas of Width*dpr x Height*dpr
// device pixels) before calling Draw.
//
// Axes, ticks and layout are hand-written here (a few hundred lines) instead of
// using gonum.org/v1/plot, which would add several megabytes to the wasm
// binary for the few features these three charts need.
package chart

// Canvas is the subset of the HTML CanvasRenderingContext2D that the charts
// use. Lengths and coordinates are CSS pixels. Methods mirror the canvas API
// of the same name (setters for its properties); see
// https://html.spec.whatwg.org/multipage/canvas.html.
//
// Methods do not return errors, so that drawing code stays readable. An
// implementation that can fail (a JavaScript call through safejs) should keep
// the first error, make later calls no-ops, and report it from Err; every
// Draw method returns Err's result.
type Canvas interface {
	// SetStrokeStyle sets strokeStyle to a CSS colour such as "#0072b2".
	SetStrokeStyle(css string)
	// SetFillStyle sets fillStyle to a CSS colour such as "#ffffff".
	SetFillStyle(css string)
	// SetLineWidth sets lineWidth in CSS pixels.
	SetLineWidth(w float64)
	// SetLineDash calls setLineDash with dash and gap lengths in CSS pixels;
	// an empty slice gives a solid line.
	SetLineDash(segments []float64)
	// SetFont sets font to a CSS font shorthand such as "12px sans-serif".
	SetFont(css string)
	// SetTextAlign sets textAlign: "left", "right" or "center".
	SetTextAlign(align string)
	// SetTextBaseline sets textBaseline: "top", "middle", "bottom" or "alphabetic".
	SetTextBaseline(baseline string)

	// Save pushes the drawing state (styles, transform, clip) on a stack.
	Save()
	// Restore pops the state pushed by the matching Save.
	Restore()
	// Translate moves the origin by (x, y) CSS pixels.
	Translate(x, y float64)
	// Rotate rotates the coordinate system clockwise by angle radians.
	Rotate(angle float64)

	// BeginPath starts a new, empty path.
	BeginPath()
	// MoveTo starts a new sub-path at (x, y).
	MoveTo(x, y float64)
	// LineTo adds a straight segment to (x, y).
	LineTo(x, y float64)
	// Rect adds the closed rectangle with top-left corner (x, y) and size w x h.
	Rect(x, y, w, h float64)
	// Arc adds a circular arc of radius r centred at (x, y), from angle start
	// to end (radians, clockwise, 0 pointing right).
	Arc(x, y, r, start, end float64)
	// Clip intersects the clipping region with the current path.
	Clip()
	// Stroke strokes the current path with the stroke style, width and dash.
	Stroke()
	// Fill fills the current path with the fill style (non-zero rule).
	Fill()
	// FillRect fills the rectangle (x, y, w, h) with the fill style.
	FillRect(x, y, w, h float64)
	// ClearRect makes the rectangle (x, y, w, h) transparent.
	ClearRect(x, y, w, h float64)
	// FillText draws s with the font, fill style, alignment and baseline
	// anchored at (x, y).
	FillText(s string, x, y float64)
	// MeasureText returns the advance width of s in the current font, in CSS
	// pixels (measureText(s).width).
	MeasureText(s string) float64

	// Err returns the first error met by an earlier call, or nil.
	Err() error
}
