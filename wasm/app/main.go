//go:build js && wasm

// Command app is the page's entry point: it mounts the Vugu root component
// (package web) on #app, starts the compute workers, registers the
// window.cleanex API, draws the charts after each render, and on first open
// analyses a small simulated example so the page is never empty.
package main

import (
	"fmt"

	"github.com/cleanex/cleanex/internal/jsdom"
	"github.com/cleanex/cleanex/web"
	"github.com/vugu/vugu"
	"github.com/vugu/vugu/domrender"
)

// slowFrameMS is the frame time above which a frame is logged to the console.
const slowFrameMS = 50

func main() {
	var renderer *domrender.JSRenderer
	var err error
	// domrender evals its helper script, which the page's CSP forbids; the
	// page has already loaded it from assets/vugu-render.js.
	if e := jsdom.NoEval(func() { renderer, err = domrender.New("#app") }); e != nil {
		err = e
	}
	if err != nil {
		fail(err)
		return
	}
	defer renderer.Release()
	buildEnv, err := vugu.NewBuildEnv(renderer.EventEnv())
	if err != nil {
		fail(err)
		return
	}
	st := web.NewState()
	a := newApp(renderer.EventEnv(), st)
	root := &web.Root{S: st, B: a}
	go a.start()
	for ok := true; ok; ok = renderer.EventWait() {
		t0 := jsdom.Now()
		// The build reads the state, so it runs with env read-locked;
		// Render takes that lock itself.
		a.env.RLock()
		built := buildEnv.RunBuild(root)
		a.env.RUnlock()
		if err := renderer.Render(built); err != nil {
			fail(err)
			return
		}
		t1 := jsdom.Now()
		a.env.Lock()
		a.afterRender()
		a.env.UnlockOnly()
		if t2 := jsdom.Now(); t2-t0 > slowFrameMS {
			jsdom.Log(fmt.Sprintf("cleanex: slow frame: build+render %.0f ms, charts %.0f ms", t1-t0, t2-t1))
		}
	}
}

// fail shows a start-up error in the page's #app element.
func fail(err error) {
	jsdom.Log("cleanex: ", err)
	el, e := jsdom.ByID("app")
	if e == nil {
		e = jsdom.SetProp(el, "textContent", "The app could not start: "+err.Error())
	}
	if e != nil {
		// The page cannot show it: the console has it (above).
		jsdom.Log("cleanex: showing the start-up error: ", e)
	}
}
