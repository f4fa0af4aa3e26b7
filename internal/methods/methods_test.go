package methods

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate/kde"
	"github.com/cleanex/cleanex/internal/scores"
)

func TestNewEveryName(t *testing.T) {
	for _, name := range Names {
		e, err := New(name, Options{Seed: 1})
		if err != nil {
			t.Fatalf("New(%q): %v", name, err)
		}
		if e.Name() != name {
			t.Errorf("New(%q).Name() = %q", name, e.Name())
		}
	}
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		name string
		o    Options
		want string
	}{
		{"svm", Options{}, `unknown method "svm": valid methods are ` + strings.Join(Names, ", ")},
		{"", Options{}, "unknown method"},
		{"cleanex", Options{Preset: "slow"}, `unknown preset "slow"`},
		{"kde", Options{KDEBandwidth: "silverman"}, `selector "silverman"`},
	}
	for _, tc := range tests {
		_, err := New(tc.name, tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%q, %+v) error = %v, want one containing %q", tc.name, tc.o, err, tc.want)
		}
	}
}

// TestKDEOptions checks that the bandwidth option reaches the estimator.
func TestKDEOptions(t *testing.T) {
	for _, tc := range []struct {
		opt  string
		want kde.Selector
	}{{"", kde.LCV}, {"lcv", kde.LCV}, {"ucv", kde.UCV}} {
		e, err := New("kde", Options{KDEBandwidth: tc.opt})
		if err != nil {
			t.Fatal(err)
		}
		if got := e.(kde.Estimator).Bandwidth; got != tc.want {
			t.Errorf("KDEBandwidth %q gives %v, want %v", tc.opt, got, tc.want)
		}
	}
}

func TestParseList(t *testing.T) {
	got, err := ParseList(" plugin , cleanex")
	if err != nil || strings.Join(got, "|") != "plugin|cleanex" {
		t.Errorf("ParseList = %v, %v; want [plugin cleanex]", got, err)
	}
	all, err := ParseList(strings.Join(Names, ","))
	if err != nil || len(all) != len(Names) {
		t.Errorf("ParseList(all names) = %v, %v", all, err)
	}
	for _, bad := range []struct{ list, want string }{
		{"plugin,,cleanex", "empty name"},
		{"", "empty name"},
		{"plugin,knn", `unknown method "knn"`},
		{"plugin,plugin", "listed twice"},
	} {
		if _, err := ParseList(bad.list); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ParseList(%q) error = %v, want one containing %q", bad.list, err, bad.want)
		}
	}
}

// TestNewListPlugin fits the registry's plug-in on a 3-class matrix and
// compares with the closed form sum_x w_x (R_x/(K-1))^(k-1).
func TestNewListPlugin(t *testing.T) {
	if _, err := NewList("plugin", Options{Preset: "slow"}); err == nil {
		t.Error("NewList accepted an unknown preset")
	}
	if _, err := NewList("plugin", Options{KDEBandwidth: "x"}); err == nil {
		t.Error("NewList accepted an unknown KDE bandwidth selector")
	}
	ests, err := NewList("plugin", Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := &scores.Matrix{Classes: []string{"a", "b", "c"}, Labels: []int{0, 1, 2},
		Scores: []float64{
			0.9, 0.1, 0.2, // R = 2
			0.5, 0.4, 0.6, // R = 0 (ties lose; 0.4 < both)
			0.3, 0.7, 0.5, // R = 1
		}}
	s, _, err := accuracy.NewSample(m, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ests[0].Fit(context.Background(), s, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k := 2; k <= 5; k++ {
		want := (math.Pow(1, float64(k-1)) + math.Pow(0, float64(k-1)) + math.Pow(0.5, float64(k-1))) / 3
		if math.Abs(res.Curve[k]-want) > 1e-15 {
			t.Errorf("plugin at k=%d: %v, want %v", k, res.Curve[k], want)
		}
	}
}
