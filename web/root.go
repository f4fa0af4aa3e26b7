package web

import (
	"strconv"
	"strings"

	"github.com/vugu/vugu"

	"github.com/cleanex/cleanex/internal/limits"
)

// Root is the page's root component.
type Root struct {
	// S is the page state, B does the work.
	S *State
	B Backend

	showSim bool
	// howOpen is whether the "How it works" panel is open.
	howOpen bool
}

// chartHost is the class of a chart's host element, hidden unless show. The
// class is an expression so that Vugu renders the host as a dynamic element
// and leaves its children (the canvas the app adds) alone: an empty static
// element would have its content reset to "" at every render.
func chartHost(show bool) string {
	return strings.TrimSpace("chart-host " + hiddenUnless(show))
}

// howToggle keeps the "How it works" panel's open state across renders.
func (c *Root) howToggle(event vugu.DOMEvent) {
	c.howOpen = event.PropBool("target", "open")
}

// nowrapIf is the class of a TextPart: "nowrap" for a NoWrap part.
func nowrapIf(noWrap bool) string {
	if noWrap {
		return "nowrap"
	}
	return ""
}

// thousands writes k with its digits grouped by commas (2,000).
func thousands(k int) string { return limits.Thousands(k) }

// fmtG formats a number in its shortest form (0.2, not 0.200000).
func fmtG(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// hiddenUnless returns the class that hides an element unless show. The
// results section keeps the same elements whatever it shows, so that Vugu
// never re-creates the chart canvases (which would lose their drawing).
func hiddenUnless(show bool) string {
	if show {
		return ""
	}
	return "hidden"
}

// whyToggle keeps the "Why this answer" panel's open state across renders
// and has its chart drawn when it opens.
func (c *Root) whyToggle(event vugu.DOMEvent) {
	open := event.PropBool("target", "open")
	if open != c.S.WhyOpen {
		c.S.WhyOpen = open
		c.B.Redraw()
	}
}

func (c *Root) toggleSim() { c.showSim = !c.showSim }

// appClass is the page's class: "app", plus "presentation" in presentation mode.
func (c *Root) appClass() string {
	if c.S.Presentation {
		return "app presentation"
	}
	return "app"
}

// ariaBool is the value of an aria-* attribute that takes "true" or "false".
func ariaBool(b bool) string { return strconv.FormatBool(b) }

// run runs the methods unless a run is under way. The Run and Cancel
// buttons are never disabled (a disabled button loses the keyboard focus);
// aria-disabled says when they do nothing.
func (c *Root) run() {
	if !c.S.Running {
		c.B.Run()
	}
}

func (c *Root) cancel() {
	if c.S.Running {
		c.B.Cancel()
	}
}

func (c *Root) setPresentation(event vugu.DOMEvent) {
	c.S.Presentation = event.PropBool("target", "checked")
	c.B.Redraw()
}

func (c *Root) setLogU(event vugu.DOMEvent) {
	c.S.LogU = event.PropBool("target", "checked")
	c.B.Redraw()
}

// slide stores the whole-number value of the slider called name and
// simulates again.
func (c *Root) slide(name string, dst *int, event vugu.DOMEvent) {
	if c.setInt(name, dst, event) {
		c.B.Slide()
	}
}

// slideFloat stores the value of the slider called name and simulates again.
func (c *Root) slideFloat(name string, dst *float64, event vugu.DOMEvent) {
	if c.setFloat(name, dst, event) {
		c.B.Slide()
	}
}

func (c *Root) simButton() string {
	if c.showSim {
		return "Hide simulation"
	}
	return "Simulate data…"
}

func (c *Root) submitSim(event vugu.DOMEvent) {
	event.PreventDefault()
	c.B.Simulate()
}

func (c *Root) setDirection(event vugu.DOMEvent) {
	c.S.Direction = event.PropString("target", "value")
	c.B.Reload()
}

// setMetric and setReference score the embeddings on screen again under
// the chosen metric or reference.
func (c *Root) setMetric(event vugu.DOMEvent) {
	c.S.Metric = event.PropString("target", "value")
	c.B.Reload()
}

func (c *Root) setReference(event vugu.DOMEvent) {
	c.S.Reference = event.PropString("target", "value")
	c.B.Reload()
}

func (c *Root) setLogX(event vugu.DOMEvent) {
	c.S.LogX = event.PropBool("target", "checked")
	c.B.Redraw()
}

// barState is a method's progress state as a class: "skipped", "failed",
// "done" or "" while it runs (the progress bar's colour).
func (c *Root) barState(p MethodProgress) string {
	switch {
	case p.Skipped:
		return "skipped"
	case p.Failed:
		return "failed"
	case p.Done:
		return "done"
	}
	return ""
}

// barClass is the class of a method's progress text.
func (c *Root) barClass(p MethodProgress) string {
	return strings.TrimSpace("bar-text " + c.barState(p))
}

// k2Key runs the methods with the typed k2 when Enter is pressed in its box;
// any other key keeps the text typed so far (TypeK2).
func (c *Root) k2Key(event vugu.DOMEvent) {
	if event.PropString("key") != "Enter" {
		c.S.TypeK2(event.PropString("target", "value"))
		return
	}
	c.setK2(event)
	c.B.Run()
}

// seedField names the random seed's box in messages.
const seedField = "random seed"

// seedKey runs the methods with the typed random seed when Enter is
// pressed in its box, as Enter in the k2 box does (not when the text typed
// is not a seed: State.SetUint says so and keeps the seed).
func (c *Root) seedKey(event vugu.DOMEvent) {
	if event.PropString("key") == "Enter" && c.setUint(seedField, &c.S.Seed, event) {
		c.B.Run()
	}
}

// setK2 stores the typed k2, or shows why it is refused (limits.ParseK2:
// the command line's message) and keeps the previous one.
func (c *Root) setK2(event vugu.DOMEvent) {
	c.S.SetK2(event.PropString("target", "value"))
}

// setInt, setFloat and setUint read the form field called name into dst
// (State.SetInt, SetFloat, SetUint: text that cannot be read keeps dst and
// says so) and report whether they could.
func (c *Root) setInt(name string, dst *int, event vugu.DOMEvent) bool {
	return c.S.SetInt(name, dst, event.PropString("target", "value"))
}

func (c *Root) setFloat(name string, dst *float64, event vugu.DOMEvent) bool {
	return c.S.SetFloat(name, dst, event.PropString("target", "value"))
}

func (c *Root) setUint(name string, dst *uint64, event vugu.DOMEvent) bool {
	return c.S.SetUint(name, dst, event.PropString("target", "value"))
}
