//go:build js && wasm

package jsdom

import (
	"errors"
	"fmt"
	"sync"
	"syscall/js"

	"github.com/hack-pad/safejs"
	"github.com/vugu/vugu"
)

// Value is a JavaScript value (an alias of safejs.Value, so other packages
// need not import safejs).
type Value = safejs.Value

// Global returns the global object (window on a page, self in a worker).
func Global() Value { return safejs.Global() }

// EventTarget returns the target of the DOM event that Vugu hands to an
// event handler (the <input> of a change event).
func EventTarget(ev vugu.DOMEvent) Value { return safejs.Safe(js.Value(ev.JSEventTarget())) }

// global returns the global called name (a constructor such as Uint8Array),
// or an error when it cannot be read or is missing.
func global(name string) (Value, error) {
	v, err := Global().Get(name)
	if err != nil {
		return v, fmt.Errorf("reading %s: %w", name, err)
	}
	if v.IsUndefined() || v.IsNull() {
		return v, fmt.Errorf("this browser has no %s", name)
	}
	return v, nil
}

// construct returns new name(args...) for the global constructor name.
func construct(name string, args ...any) (Value, error) {
	c, err := global(name)
	if err != nil {
		return c, err
	}
	v, err := c.New(args...)
	if err != nil {
		return v, fmt.Errorf("new %s: %w", name, err)
	}
	return v, nil
}

// Path follows properties from v, as v.a.b.c in JavaScript.
func Path(v Value, props ...string) (Value, error) {
	var err error
	for _, p := range props {
		if v.IsUndefined() || v.IsNull() {
			return v, fmt.Errorf("reading %q of undefined", p)
		}
		v, err = v.Get(p)
		if err != nil {
			return v, fmt.Errorf("reading %q: %w", p, err)
		}
	}
	return v, nil
}

// ByID returns document.getElementById(id), or an error when there is none.
func ByID(id string) (Value, error) {
	doc, err := Path(Global(), "document")
	if err != nil {
		return doc, err
	}
	el, err := doc.Call("getElementById", id)
	if err != nil {
		return el, err
	}
	if el.IsNull() || el.IsUndefined() {
		return el, fmt.Errorf("no element #%s", id)
	}
	return el, nil
}

// Float reads v.prop as a number, or def when it is missing.
func Float(v Value, prop string, def float64) float64 {
	x, err := v.Get(prop)
	if err != nil || x.Type() != safejs.TypeNumber {
		return def
	}
	f, err := x.Float()
	if err != nil {
		return def
	}
	return f
}

// Number reads v.prop as a number: ok is false when it is missing
// (undefined or null); a value of another type (a string "200") is an error
// naming the property and the type.
func Number(v Value, prop string) (f float64, ok bool, err error) {
	x, err := v.Get(prop)
	if err != nil {
		return 0, false, err
	}
	switch x.Type() {
	case safejs.TypeUndefined, safejs.TypeNull:
		return 0, false, nil
	case safejs.TypeNumber:
		f, err = x.Float()
		return f, err == nil, err
	}
	if x.Type() == safejs.TypeString {
		str, _ := x.String()
		return 0, false, fmt.Errorf("%s %q is text: give it as a number, without quotes", prop, str)
	}
	return 0, false, fmt.Errorf("%s must be a number, not a %s", prop, x.Type())
}

// String reads v.prop as a string, or "" when it is missing.
func String(v Value, prop string) string {
	x, err := v.Get(prop)
	if err != nil || x.Type() != safejs.TypeString {
		return ""
	}
	s, _ := x.String()
	return s
}

// Await blocks the calling goroutine (never the JavaScript event loop) until
// the promise p settles, and returns its value or its rejection as an error.
func Await(p Value) (Value, error) {
	type outcome struct {
		v   Value
		err error
	}
	ch := make(chan outcome, 1)
	var onOK, onErr safejs.Func
	var err error
	onOK, err = safejs.FuncOf(func(_ Value, args []Value) any {
		ch <- outcome{v: arg0(args)}
		return nil
	})
	if err != nil {
		return Value{}, err
	}
	defer onOK.Release()
	onErr, err = safejs.FuncOf(func(_ Value, args []Value) any {
		ch <- outcome{err: jsError(arg0(args))}
		return nil
	})
	if err != nil {
		return Value{}, err
	}
	defer onErr.Release()
	if _, err := p.Call("then", onOK, onErr); err != nil {
		return Value{}, err
	}
	o := <-ch
	return o.v, o.err
}

func arg0(args []Value) Value {
	if len(args) == 0 {
		return safejs.Undefined()
	}
	return args[0]
}

// JSError is a rejected promise's JavaScript error: its name
// ("NotReadableError", "RangeError") and its message.
type JSError struct {
	Name, Message string
}

// Error returns the message.
func (e *JSError) Error() string { return e.Message }

// ErrorName returns the JavaScript name of the error behind err (a rejection
// that Await returned, or an exception that a call threw), or "" when err
// does not come from JavaScript.
func ErrorName(err error) string {
	var je *JSError
	if errors.As(err, &je) {
		return je.Name
	}
	var thrown js.Error
	if errors.As(err, &thrown) {
		// A thrown value need not be an object: String reads it safely.
		return String(safejs.Safe(thrown.Value), "name")
	}
	return ""
}

// jsError turns a rejection value into a Go error with its message (a
// *JSError when it has one).
func jsError(v Value) error {
	if msg := String(v, "message"); msg != "" {
		return &JSError{Name: String(v, "name"), Message: msg}
	}
	if s, err := v.String(); err == nil && s != "" {
		return errors.New(s)
	}
	return errors.New("JavaScript error")
}

// Now returns performance.now() in milliseconds.
func Now() float64 {
	p, err := Path(Global(), "performance")
	if err != nil {
		return 0
	}
	v, err := p.Call("now")
	if err != nil {
		return 0
	}
	f, _ := v.Float()
	return f
}

// HardwareConcurrency returns navigator.hardwareConcurrency (1 when unknown).
func HardwareConcurrency() int {
	nav, err := Path(Global(), "navigator")
	if err != nil {
		return 1
	}
	n := int(Float(nav, "hardwareConcurrency", 1))
	return max(n, 1)
}

// DevicePixelRatio returns window.devicePixelRatio (1 when unknown).
func DevicePixelRatio() float64 {
	r := Float(Global(), "devicePixelRatio", 1)
	if r <= 0 {
		return 1
	}
	return r
}

// Listen adds an event listener for typ on target that calls fn
// synchronously (so fn may call preventDefault); the returned function
// removes it.
func Listen(target Value, typ string, fn func(event Value)) (func(), error) {
	f, err := safejs.FuncOf(func(_ Value, args []Value) any {
		fn(arg0(args))
		return nil
	})
	if err != nil {
		return nil, err
	}
	if _, err := target.Call("addEventListener", typ, f); err != nil {
		f.Release()
		return nil, err
	}
	return func() {
		if _, err := target.Call("removeEventListener", typ, f); err == nil {
			f.Release()
		}
	}, nil
}

// Log writes a line to the console. The console is where the page reports
// what it cannot show otherwise, so a console that fails is not reported.
func Log(args ...any) {
	c, err := Path(Global(), "console")
	if err == nil {
		_, _ = c.Call("log", fmt.Sprint(args...))
	}
}

// maxReported bounds the distinct lines a Reporter remembers; once it is
// reached, further new lines are not logged.
const maxReported = 200

// Reporter logs errors that the page cannot act on (a listener that could
// not be attached, an attribute that could not be set) to the console, each
// distinct line once, so that a call failing on every frame logs one line.
// Its zero value is ready to use; it is safe for concurrent use.
type Reporter struct {
	mu   sync.Mutex
	seen map[string]bool
}

// Report logs "cleanex: what: err" once; a nil err is not reported.
func (r *Reporter) Report(what string, err error) {
	if err == nil {
		return
	}
	line := "cleanex: " + what + ": " + err.Error()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seen[line] || len(r.seen) >= maxReported {
		return
	}
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	r.seen[line] = true
	Log(line)
}

// Bool reads v.prop as a truth value (false when missing).
func Bool(v Value, prop string) bool {
	x, err := v.Get(prop)
	if err != nil {
		return false
	}
	b, err := x.Truthy()
	return err == nil && b
}

// NextFrame blocks the calling goroutine until the browser's next
// requestAnimationFrame callback, the moment before it paints: work done
// then runs in a task of its own, ahead of queued timers and messages. It
// returns at once where requestAnimationFrame is missing (in a worker).
func NextFrame() {
	raf, err := Global().Get("requestAnimationFrame")
	if err != nil || raf.Type() != safejs.TypeFunction {
		return
	}
	ch := make(chan struct{}, 1)
	f, err := safejs.FuncOf(func(Value, []Value) any {
		ch <- struct{}{}
		return nil
	})
	if err != nil {
		return
	}
	defer f.Release()
	if _, err := Global().Call("requestAnimationFrame", f); err != nil {
		return
	}
	<-ch
}
