package web

import "testing"

// TestSetK2: a k2 typed in range is stored and clears its earlier refusal;
// one out of range or not a number keeps the previous k2 and shows the
// command line's message beside the k2 box only (not again in the data
// card's error line).
func TestSetK2(t *testing.T) {
	s := NewState()
	s.K2 = 500
	for _, tc := range []struct {
		text  string
		k2    int
		error string
	}{
		{"9223372036854775807", 500, "k2 9223372036854775807: too large: the largest k2 accepted is 10,000,000 classes; at 9223372036854775807 a run would need ~2.49 ZB of memory (~2.7 GB at the limit)"},
		{"1e12", 500, "k2 1e12: too large: the largest k2 accepted is 10,000,000 classes; at 1e12 a run would need ~270 TB of memory (~2.7 GB at the limit)"},
		{"", 500, `k2 "": not a number; give a whole number of classes to predict for, like 2000`},
		{"2000", 2000, ""},
		{"1", 2000, "k2 1: give the number of classes to predict for, at least 2"},
	} {
		s.SetK2(tc.text)
		if s.K2 != tc.k2 || s.Error != "" || s.K2Err != tc.error {
			t.Errorf("SetK2(%q): K2 %d, Error %q, K2Err %q; want %d, no Error, %q", tc.text, s.K2, s.Error, s.K2Err, tc.k2, tc.error)
		}
	}
}

// TestTypeK2: text being typed stays in the k2 box (K2Value) until SetK2
// reads it; a refused k2 stays for correction; ShowK2 (a new data set or a
// run) shows the stored k2 again.
func TestTypeK2(t *testing.T) {
	s := NewState()
	s.ShowK2(1000)
	if got := s.K2Value(); got != "1000" {
		t.Fatalf("K2Value = %q, want 1000", got)
	}
	s.TypeK2("5")
	s.TypeK2("50")
	if got := s.K2Value(); got != "50" || s.K2 != 1000 {
		t.Errorf("while typing: box %q, K2 %d; want 50 and the stored 1000", got, s.K2)
	}
	s.SetK2("5,000")
	if got := s.K2Value(); got != "5000" || s.K2 != 5000 || s.K2Typing {
		t.Errorf("after SetK2(5,000): box %q, K2 %d, typing %v; want 5000, 5000, false", got, s.K2, s.K2Typing)
	}
	s.TypeK2("x")
	s.SetK2("x")
	if got := s.K2Value(); got != "x" || s.K2 != 5000 || s.K2Err == "" {
		t.Errorf("after SetK2(x): box %q, K2 %d, K2Err %q; want x kept, 5000, a message", got, s.K2, s.K2Err)
	}
	s.ShowK2(300)
	if got := s.K2Value(); got != "300" || s.K2Err != "" || s.K2Typing {
		t.Errorf("after ShowK2(300): box %q, K2Err %q, typing %v", got, s.K2Err, s.K2Typing)
	}
}

// With the paper preset, or CleaneX unchecked, the fast CleaneX fits' bar
// says what they are for; so do the other fits of the recommendation.
func TestBarLabel(t *testing.T) {
	s := NewState()
	if got := s.BarLabel("cleanex"); got != s.Label("cleanex") {
		t.Errorf("fast preset: %q, want %q", got, s.Label("cleanex"))
	}
	s.Preset = "paper"
	if got := s.BarLabel("cleanex"); got != "CleaneX fast, for the recommendation" {
		t.Errorf("paper preset: %q", got)
	}
	if got := s.BarLabel(PaperBar); got != "CleaneX (paper preset)" {
		t.Errorf("paper bar: %q", got)
	}
	// CleaneX unchecked: its fits still run, for the recommendation.
	s.Preset = "fast"
	for i := range s.Methods {
		if s.Methods[i].Name == "cleanex" {
			s.Methods[i].On = false
		}
	}
	if got := s.BarLabel("cleanex"); got != "CleaneX, for the recommendation" {
		t.Errorf("CleaneX unchecked: %q", got)
	}
	// So do the pooled, the tail method's, the regression's and KDE's (its
	// curve counts in the interval), not the plug-in's (it is not one of the
	// recommendation's fits), and a refused run's line goes when a method is
	// ticked.
	s.Status = NotRun + "choose at least one method."
	for i, m := range s.Methods {
		s.SetMethod(i, m.Name == "plugin")
	}
	for name, want := range map[string]string{"pooled": "pooled (location-scale), for the recommendation",
		"tail":       "tail (peaks over threshold), for the recommendation",
		"regression": "regression (Zheng et al.), for the recommendation", "kde": "KDE (Kay et al.), for the recommendation", "plugin": s.Label("plugin")} {
		if got := s.BarLabel(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if s.Status != "" {
		t.Errorf("the status line still says %q after a method was ticked", s.Status)
	}
}

// A bar's label splits into the short name, the detail a phone leaves out
// and the rest, which together are BarLabel; the paper preset's bar keeps
// its bracket, which tells it from the fast CleaneX fits' bar.
func TestBarLabelParts(t *testing.T) {
	s := NewState()
	s.Preset = "paper"
	for i := range s.Methods {
		if s.Methods[i].Name == "regression" {
			s.Methods[i].On = false
		}
	}
	for _, tc := range []struct {
		name string
		want [3]string
	}{
		{"kde", [3]string{"KDE", " (Kay et al.)", ""}},
		{"plugin", [3]string{"plug-in", "", ""}},
		{"regression", [3]string{"regression", " (Zheng et al.)", ", for the recommendation"}},
		{"cleanex", [3]string{"CleaneX fast, for the recommendation", "", ""}},
		{PaperBar, [3]string{"CleaneX (paper preset)", "", ""}},
	} {
		got := s.BarLabelParts(tc.name)
		if got != tc.want {
			t.Errorf("BarLabelParts(%q) = %q, want %q", tc.name, got, tc.want)
		}
		if joined := got[0] + got[1] + got[2]; joined != s.BarLabel(tc.name) {
			t.Errorf("BarLabelParts(%q) joins to %q, BarLabel is %q", tc.name, joined, s.BarLabel(tc.name))
		}
	}
}
