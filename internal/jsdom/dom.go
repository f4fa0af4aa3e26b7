//go:build js && wasm

package jsdom

import (
	"fmt"
	"sort"
)

// EnsureChild returns the element #id inside the element #host, creating it
// (a tag element with attrs) and appending it to host when it is missing.
// The page's chart canvases live in such hosts: the host is an empty
// element of the Vugu template, so re-renders never touch its children and
// a canvas keeps its size and drawing.
func EnsureChild(host, tag, id string, attrs map[string]string) (Value, error) {
	if el, err := ByID(id); err == nil {
		return el, nil
	}
	h, err := ByID(host)
	if err != nil {
		return h, err
	}
	doc, err := Path(Global(), "document")
	if err != nil {
		return doc, err
	}
	el, err := doc.Call("createElement", tag)
	if err != nil {
		return el, fmt.Errorf("creating <%s>: %w", tag, err)
	}
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := SetAttr(el, k, attrs[k]); err != nil {
			return el, err
		}
	}
	if err := SetAttr(el, "id", id); err != nil {
		return el, err
	}
	if _, err := h.Call("appendChild", el); err != nil {
		return el, fmt.Errorf("adding #%s: %w", id, err)
	}
	return el, nil
}

// SetAttr sets the attribute name of el to value unless it already has it.
func SetAttr(el Value, name, value string) error {
	cur, err := el.Call("getAttribute", name)
	if err == nil && IsString(cur) {
		if s, err := cur.String(); err == nil && s == value {
			return nil
		}
	}
	if _, err := el.Call("setAttribute", name, value); err != nil {
		return fmt.Errorf("setting %s: %w", name, err)
	}
	return nil
}

// Focus moves the keyboard focus to the element #id, if there is one.
func Focus(id string) {
	if el, err := ByID(id); err == nil {
		_, _ = el.Call("focus")
	}
}

// FocusVisible reports whether el has the focus in a way the browser marks
// with a focus ring (el.matches(":focus-visible")): given by the keyboard,
// not by a click or a tap.
func FocusVisible(el Value) bool {
	v, err := el.Call("matches", ":focus-visible")
	if err != nil {
		return false
	}
	b, err := v.Bool()
	return err == nil && b
}

// Reveal scrolls the element #id into view, as little as needed
// (scrollIntoView({block: "nearest"})), if there is one.
func Reveal(id string) {
	if el, err := ByID(id); err == nil {
		_, _ = el.Call("scrollIntoView", map[string]any{"block": "nearest"})
	}
}

// MatchMedia reports whether the CSS media query q matches now.
func MatchMedia(q string) bool {
	mq, err := Global().Call("matchMedia", q)
	if err != nil {
		return false
	}
	return Bool(mq, "matches")
}

// ListenMedia calls fn whenever the CSS media query q starts or stops matching.
func ListenMedia(q string, fn func()) error {
	mq, err := Global().Call("matchMedia", q)
	if err != nil {
		return err
	}
	_, err = Listen(mq, "change", func(Value) { fn() })
	return err
}

// Hash returns location.hash without its leading "#".
func Hash() string {
	loc, err := Path(Global(), "location")
	if err != nil {
		return ""
	}
	h := String(loc, "hash")
	if len(h) > 0 && h[0] == '#' {
		h = h[1:]
	}
	return h
}

// SetHash replaces location.hash by h (without adding a history entry).
func SetHash(h string) error {
	hist, err := Path(Global(), "history")
	if err != nil {
		return err
	}
	url := "#" + h
	if h == "" {
		loc, err := Path(Global(), "location")
		if err != nil {
			return err
		}
		url = String(loc, "pathname") + String(loc, "search")
	}
	_, err = hist.Call("replaceState", nil, "", url)
	return err
}

// PageURL returns location.href.
func PageURL() string {
	loc, err := Path(Global(), "location")
	if err != nil {
		return ""
	}
	return String(loc, "href")
}

// CopyText writes s to the clipboard; it waits for the browser's answer.
func CopyText(s string) error {
	cb, err := Path(Global(), "navigator", "clipboard")
	if err != nil || cb.IsUndefined() {
		return fmt.Errorf("this browser gives no clipboard here")
	}
	p, err := cb.Call("writeText", s)
	if err != nil {
		return err
	}
	_, err = Await(p)
	return err
}

// SetProp sets the property prop of v (el.value, el.textContent).
func SetProp(v Value, prop string, x any) error {
	if err := v.Set(prop, x); err != nil {
		return fmt.Errorf("setting %s: %w", prop, err)
	}
	return nil
}

// PreventDefault calls ev.preventDefault().
func PreventDefault(ev Value) error {
	_, err := ev.Call("preventDefault")
	return err
}

// ToggleClass adds the CSS class to el (on) or removes it.
func ToggleClass(el Value, class string, on bool) error {
	cl, err := Path(el, "classList")
	if err != nil {
		return err
	}
	_, err = cl.Call("toggle", class, on)
	return err
}
