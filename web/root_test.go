package web

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/protocol"
	"github.com/cleanex/cleanex/internal/report"
	"github.com/vugu/vugu"
	"github.com/vugu/vugu/staticrender"
)

// nopBackend records nothing: the static render never fires events.
type nopBackend struct{}

func (nopBackend) LoadFile(vugu.DOMEvent)    {}
func (nopBackend) LoadExample()              {}
func (nopBackend) LoadEmbeddingsExample()    {}
func (nopBackend) Reload()                   {}
func (nopBackend) Simulate()                 {}
func (nopBackend) Run()                      {}
func (nopBackend) Cancel()                   {}
func (nopBackend) ExportCSV()                {}
func (nopBackend) ExportPNG()                {}
func (nopBackend) Redraw()                   {}
func (nopBackend) Slide()                    {}
func (nopBackend) CopyLink()                 {}
func (nopBackend) SaveSession()              {}
func (nopBackend) OpenSession(vugu.DOMEvent) {}

func render(t *testing.T, st *State) string {
	t.Helper()
	var buf bytes.Buffer
	r := staticrender.New(&buf)
	env, err := vugu.NewBuildEnv(r.EventEnv())
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Render(env.RunBuild(&Root{S: st, B: nopBackend{}})); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestRootShowsStateAndErrorInDropZone(t *testing.T) {
	st := NewState()
	st.Error = `row 3, column "dog": not a number: "abc"`
	st.Source = "pilot.csv"
	st.Summary = &protocol.Summary{N: 1500, K: 150, MinPoints: 8, MaxPoints: 12, Direction: "higher", Detected: "higher", Top1: 0.5}
	st.Results = report.Curves{K1: 2, K2: 4, Observed: accuracy.Curve{1, 1, 0.9},
		Truth:   accuracy.Curve{1, 1, 0.9, 0.8, 0.7},
		Methods: []report.Method{{Name: "plugin", Curve: accuracy.Curve{1, 1, 0.9, 0.8, 0.75}, Seconds: 0.5}}}
	html := render(t, st)

	zone := html[strings.Index(html, `id="dropzone"`):]
	zone = zone[:strings.Index(zone, "</div>")]
	for _, want := range []string{`id="error"`, "row 3, column &#34;dog&#34;"} {
		if !strings.Contains(zone, want) {
			t.Errorf("drop zone lacks %q:\n%s", want, zone)
		}
	}
	if !strings.Contains(html, "1,500 points, 150 classes (8–12 per class); top-1 accuracy at 150 classes: 0.500") {
		t.Error("summary line missing")
	}
	// The busy line is there when idle too, empty, so that its text comes
	// and goes in room kept for it.
	if !strings.Contains(zone, `id="busy"`) {
		t.Errorf("drop zone lacks the busy line when idle:\n%s", zone)
	}
	if !strings.Contains(html, `class="row-plugin"`) || !strings.Contains(html, `error vs truth <span class="head-unit">(RMSE)</span>`) {
		t.Error("results table with an RMSE column missing")
	}
	if !strings.Contains(html, `k = <span class="head-k">2</span>`) {
		t.Error("results table's k header missing, or not split before its number")
	}
	// RMSE of plugin vs truth over k = 2..4: only k = 4 differs, by 0.05: sqrt(0.0025/3) = 0.0289.
	if !strings.Contains(html, "0.0289") {
		t.Error("plugin RMSE 0.0289 not shown")
	}
	if !strings.Contains(html, "never leaves your computer") {
		t.Error("privacy line missing")
	}
}

func TestRootBeforeAnyData(t *testing.T) {
	html := render(t, NewState())
	if strings.Contains(html, `id="summary"`) || strings.Contains(html, `id="results"`) {
		t.Error("summary or results shown before any data")
	}
	if !strings.Contains(html, `id="file"`) || !strings.Contains(html, `for="file"`) {
		t.Error("the file picker or its label is missing")
	}
}

func TestPercentAndFormatting(t *testing.T) {
	for _, tc := range []struct {
		p    MethodProgress
		want int
	}{{MethodProgress{}, 0}, {MethodProgress{Step: 1, Total: 3}, 33}, {MethodProgress{Step: 1, Total: 3, Done: true}, 100}} {
		if got := tc.p.Percent(); got != tc.want {
			t.Errorf("%+v: %d%%, want %d%%", tc.p, got, tc.want)
		}
	}
	if limits.Thousands(1234567) != "1,234,567" || limits.Thousands(12) != "12" {
		t.Error("thousands separator")
	}
}

// The page's structure that keeps charts and focus: the root is the <main>
// landmark; chart hosts are empty (the app adds the canvases, which Vugu
// then never touches); Run and Cancel are never disabled; the σ² box
// accepts any value; the k2 box is empty before data and keeps a refused
// value with its message beside it.
func TestRootStructure(t *testing.T) {
	st := NewState()
	html := render(t, st)
	if !strings.HasPrefix(strings.TrimSpace(html), "<main") && !strings.Contains(html, `<main id="app"`) {
		t.Errorf("the root is not <main id=app>: %.80s", html)
	}
	for _, id := range []string{"host-acc", "host-roc", "host-loss"} {
		if !strings.Contains(html, `<div id="`+id+`" class="chart-host"></div>`) && !strings.Contains(html, `<div class="chart-host" id="`+id+`"></div>`) {
			t.Errorf("chart host %s missing or not empty", id)
		}
	}
	// Vugu sets an element's innerHTML when it is static; a host must not be.
	gen, err := os.ReadFile("root_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"host-acc", "host-roc", "host-loss", "host-why"} {
		i := strings.Index(string(gen), `Val: "`+id+`"`)
		if i < 0 {
			t.Fatalf("root_gen.go has no %s", id)
		}
		next := string(gen[i:])
		next = next[:strings.Index(next, "vgparent.AppendChild(vgn)\n")+200]
		if strings.Contains(next, "SetInnerHTML") {
			t.Errorf("%s is rendered with innerHTML, which would remove its canvas", id)
		}
	}
	if strings.Contains(html, "<canvas") {
		t.Error("the template renders a canvas; Vugu would reset it on every render")
	}
	if strings.Contains(html, "disabled=") && !strings.Contains(html, "aria-disabled=") {
		t.Error("a disabled control")
	}
	if !strings.Contains(html, `aria-live="polite"`) || !strings.Contains(html, `id="answer"`) {
		t.Error("the answer line is not announced")
	}
	st.SetK2("2.5")
	if st.K2Err == "" || st.K2Value() != "2.5" || st.K2 != 0 {
		t.Errorf("k2 2.5: err %q, box %q, K2 %d", st.K2Err, st.K2Value(), st.K2)
	}
	html = render(t, st)
	i := strings.Index(html, `id="k2-error"`)
	if i < 0 {
		t.Fatal("no k2 message element")
	}
	tag := html[strings.LastIndex(html[:i], "<"):]
	tag = tag[:strings.Index(tag, "</p>")]
	if strings.Contains(tag, "hidden") || !strings.Contains(tag, "k2") {
		t.Errorf("the k2 message is not shown beside the box: %s", tag)
	}
	st.SetK2("300")
	if st.K2Err != "" || st.K2Value() != "300" {
		t.Errorf("k2 300: err %q, box %q", st.K2Err, st.K2Value())
	}
}

// The reversed ROC's caption names every line the chart draws that its
// legend does not: the grey dashed line of a classifier at chance.
func TestRootROCCaptionNamesChanceLine(t *testing.T) {
	html := render(t, NewState())
	i := strings.Index(html, `id="host-roc"`)
	if i < 0 {
		t.Fatal("no reversed ROC chart host")
	}
	caption := html[i:]
	caption = caption[strings.Index(caption, `<p class="hint">`):]
	caption = caption[:strings.Index(caption, "</p>")]
	if !strings.Contains(caption, "grey dashed line") || !strings.Contains(caption, "chance") {
		t.Errorf("the reversed ROC's caption does not say what its grey dashed line is:\n%s", caption)
	}
}
