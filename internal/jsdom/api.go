//go:build js && wasm

package jsdom

import (
	"fmt"

	"github.com/hack-pad/safejs"
)

func funcOf(fn func(args []Value)) (safejs.Func, error) {
	return safejs.FuncOf(func(_ Value, args []Value) any {
		fn(args)
		return nil
	})
}

// AsyncFunc is a Go implementation of a JavaScript function that returns a
// Promise: it runs on its own goroutine, and its value (anything
// safejs.ValueOf accepts, or a Value) resolves the promise; its error rejects it.
type AsyncFunc func(args []Value) (any, error)

// Register sets window[name] to an object whose methods are the given
// functions, each returning a Promise, and sync functions that return at once.
// The Go functions stay registered for the page's lifetime.
func Register(name string, async map[string]AsyncFunc, sync map[string]func(args []Value) any) error {
	obj, err := safejs.ValueOf(map[string]any{})
	if err != nil {
		return err
	}
	promise, err := global("Promise")
	if err != nil {
		return fmt.Errorf("registering %s: %w", name, err)
	}
	for method, fn := range async {
		f, err := safejs.FuncOf(func(_ Value, args []Value) any {
			var resolve, reject Value
			exec, err := safejs.FuncOf(func(_ Value, ra []Value) any {
				resolve, reject = arg0(ra), arg1(ra)
				return nil
			})
			if err != nil {
				Log("cleanex: ", name, ".", method, ": ", err)
				return nil
			}
			p, err := promise.New(exec)
			exec.Release()
			if err != nil {
				Log("cleanex: ", name, ".", method, ": ", err)
				return nil
			}
			go func() {
				v, err := fn(args)
				if err != nil {
					settle(name+"."+method, reject, rejection(err))
					return
				}
				settle(name+"."+method, resolve, v)
			}()
			return p
		})
		if err != nil {
			return fmt.Errorf("registering %s.%s: %w", name, method, err)
		}
		if err := obj.Set(method, f); err != nil {
			return err
		}
	}
	for method, fn := range sync {
		f, err := safejs.FuncOf(func(_ Value, args []Value) any { return fn(args) })
		if err != nil {
			return fmt.Errorf("registering %s.%s: %w", name, method, err)
		}
		if err := obj.Set(method, f); err != nil {
			return err
		}
	}
	return Global().Set(name, obj)
}

// rejection returns a JavaScript Error with err's message, or the message
// itself when Error cannot be constructed.
func rejection(err error) any {
	e, cerr := construct("Error", err.Error())
	if cerr != nil {
		return err.Error()
	}
	return e
}

// settle calls a promise's resolve or reject function f with v. The caller
// of the API holds the promise, not this goroutine, so a failure can only
// be logged.
func settle(what string, f Value, v any) {
	if _, err := f.Invoke(v); err != nil {
		Log("cleanex: settling the promise of ", what, ": ", err)
	}
}

func arg1(args []Value) Value {
	if len(args) < 2 {
		return safejs.Undefined()
	}
	return args[1]
}

// ValueOf converts a Go value (maps, slices of any, strings, numbers, bools,
// nil) to JavaScript.
func ValueOf(v any) (Value, error) { return safejs.ValueOf(v) }

// Invoke calls the function f with args, ignoring a non-function f.
func Invoke(f Value, args ...any) error {
	if f.Type() != safejs.TypeFunction {
		return nil
	}
	_, err := f.Invoke(args...)
	return err
}

// NewObject returns a new empty JavaScript object.
func NewObject() (Value, error) { return safejs.ValueOf(map[string]any{}) }

// NumberArray returns a new JavaScript array of numbers, with null where
// valid (when not nil) is false.
func NumberArray(xs []float64, valid func(i int) bool) (Value, error) {
	a := make([]any, len(xs))
	for i, x := range xs {
		if valid != nil && !valid(i) {
			a[i] = nil
		} else {
			a[i] = x
		}
	}
	return safejs.ValueOf(a)
}

// IsFunction reports whether v is a function.
func IsFunction(v Value) bool { return v.Type() == safejs.TypeFunction }

// IsObject reports whether v is a non-null object.
func IsObject(v Value) bool { return v.Type() == safejs.TypeObject }

// NoEval replaces window.eval by a function that does nothing while fn runs,
// then restores it. Vugu's DOM renderer evals its helper script at start-up,
// which the page's Content-Security-Policy forbids; the page loads the same
// script from a file instead (assets/vugu-render.js), so the eval is not needed.
func NoEval(fn func()) error {
	g := Global()
	orig, err := g.Get("eval")
	if err != nil {
		return err
	}
	noop, err := safejs.FuncOf(func(Value, []Value) any { return nil })
	if err != nil {
		return err
	}
	defer noop.Release()
	if err := g.Set("eval", noop); err != nil {
		return err
	}
	defer func() { _ = g.Set("eval", orig) }()
	fn()
	return nil
}

// IsString reports whether v is a string.
func IsString(v Value) bool { return v.Type() == safejs.TypeString }
