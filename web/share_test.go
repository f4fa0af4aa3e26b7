package web

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/protocol"
)

func TestShareRoundTrip(t *testing.T) {
	for _, s := range []Share{
		{Sim: protocol.SimConfig{Classes: "normal", Points: "normal", D: 5, Sigma2: 0.1, R: 10, K1: 100, K2: 2000, Seed: 1},
			K2: 2000, Methods: []string{"plugin", "kde", "regression", "cleanex"}, Seed: 1, Preset: "fast"},
		{Sim: protocol.SimConfig{Classes: "uniform", Points: "normal", D: 3, Sigma2: 0.015625, R: 4, K1: 20, K2: 500, Seed: 77},
			K2: 12345, Methods: []string{"kde"}, Seed: 9, Preset: "paper"},
		{Sim: protocol.SimConfig{Classes: "normal", Points: "uniform", D: 1, Sigma2: 1e-3, R: 1, K1: 2, K2: 2, Seed: 0},
			K2: 2, Methods: []string{"cleanex"}, Seed: 0, Preset: "fast"},
	} {
		frag := s.Encode()
		got, err := DecodeShare("#" + frag)
		if err != nil {
			t.Fatalf("%s: %v", frag, err)
		}
		if !reflect.DeepEqual(got, s) {
			t.Errorf("%s:\n got %+v\nwant %+v", frag, got, s)
		}
	}
}

func TestShareDefaultsAndErrors(t *testing.T) {
	s, err := DecodeShare("sim=normal,normal,5,0.2,10,100,2000,3")
	if err != nil {
		t.Fatal(err)
	}
	if s.K2 != 2000 || !slices.Equal(s.Methods, methods.Names) || s.Seed != 1 || s.Preset != "fast" {
		t.Errorf("defaults: %+v", s)
	}
	if _, err := DecodeShare("k2=100"); err != ErrNoShare {
		t.Errorf("no sim: %v", err)
	}
	for frag, want := range map[string]string{
		"sim=normal,normal,5,0.2,10,100":                     "where 8 are needed",
		"sim=cauchy,normal,5,0.2,10,100,2000,3":              "cauchy",
		"sim=normal,normal,0,0.2,10,100,2000,3":              "d = ",
		"sim=normal,normal,5,-1,10,100,2000,3":               "σ²",
		"sim=normal,normal,5,0.2,10,300,200,3":               "more than",
		"sim=normal,normal,5,2000,10,100,2000,3":             "the link's σ² = 2000: want a number above 0 and at most 1,000",
		"sim=normal,normal,5,1e308,10,100,2000,3":            "at most 1,000",
		"sim=normal,normal,5,0.2,10,100,200000,3":            "the link's K = 200,000: want a whole number from 2 to 100,000",
		"sim=normal,normal,5,0.2,10,100,2000,3&k2=2.5":       "the link's k2 2.5: give a whole number",
		"sim=normal,normal,5,0.2,10,100,2000,3&k2=-5":        "the link's k2 -5",
		"sim=normal,normal,5,0.2,10,100,2000,3&k2=2e7":       "the largest k2 accepted is 10,000,000",
		"sim=normal,normal,5,0.1,100,100000,100000,1":        "the link's simulation is too large: a pilot of k1 = 100,000 classes with r = 100 points each holds r·k1² = 1,000,000,000,000 scores (8 TB), more than the 30,000,000",
		"sim=normal,normal,5,0.1,10,1000,100000,1":           "the link's simulation is too large: the true curve of a world of K = 100,000 classes",
		"sim=normal,normal,5,0.2,10,100,2000,3&methods=evil": "evil",
		"sim=normal,normal,5,0.2,10,100,2000,3&preset=x":     "preset",
	} {
		if _, err := DecodeShare(frag); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one containing %q", frag, err, want)
		}
	}
}

// A link the page cannot read is named, with what is wrong and what to do.
func TestBadLink(t *testing.T) {
	_, err := DecodeShare("sim=normal,normal,5,0.1,10&k2=abc")
	if err == nil {
		t.Fatal("a five-value sim= was accepted")
	}
	msg := BadLink(err)
	for _, want := range []string{"This link could not be read", "where 8 are needed", "Nothing was run", "choose a file"} {
		if !strings.Contains(msg, want) {
			t.Errorf("BadLink says %q, want it to contain %q", msg, want)
		}
	}
}

// A link naming no methods ("methods=") shows every method, as a link
// without the setting does; the form and a link refuse the same settings
// (CheckSim), so every simulation the page makes can be shared.
func TestShareNoMethodsAndFormBounds(t *testing.T) {
	s, err := DecodeShare("sim=normal,normal,5,0.2,10,100,2000,3&methods=")
	if err != nil || !slices.Equal(s.Methods, methods.Names) {
		t.Errorf("methods=: %v, %v; want every method", s.Methods, err)
	}
	for _, c := range []protocol.SimConfig{
		{Classes: "normal", Points: "normal", D: 5, Sigma2: 2000, R: 10, K1: 100, K2: 2000},
		{Classes: "normal", Points: "normal", D: 1, Sigma2: 0.1, R: 1, K1: 20, K2: 150000},
		{Classes: "normal", Points: "normal", D: 101, Sigma2: 0.1, R: 1, K1: 20, K2: 200},
	} {
		err := CheckSim(c)
		if err == nil {
			t.Errorf("%+v: accepted by the form", c)
			continue
		}
		if _, lerr := DecodeShare(Share{Sim: c, K2: c.K2, Methods: methods.Names, Seed: 1, Preset: "fast"}.Encode()); lerr == nil || lerr.Error() != "the link's "+err.Error() {
			t.Errorf("%+v: the form says %q, its link %v", c, err, lerr)
		}
	}
	ok := protocol.SimConfig{Classes: "normal", Points: "normal", D: 1, Sigma2: 1000, R: 2, K1: 2, K2: 100000}
	if err := CheckSim(ok); err != nil {
		t.Errorf("the bounds themselves: %v", err)
	}
}
