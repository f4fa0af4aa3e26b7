package web

import (
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/protocol"
)

func TestSessionRoundTrip(t *testing.T) {
	st := NewState()
	st.Source, st.K2, st.Seed, st.Preset = "pilot.csv", 1234, 7, "fast"
	st.Methods[0].On = false
	sim := &protocol.SimConfig{Classes: "normal", Points: "uniform", D: 4, Sigma2: 0.3, R: 5, K1: 40, K2: 900, Seed: 3}
	b, err := NewSession(st, sim).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "label,") {
		t.Error("the session holds data")
	}
	s, err := ParseSession(b)
	if err != nil {
		t.Fatal(err)
	}
	st2 := NewState()
	s.Restore(st2)
	if st2.K2 != 1234 || st2.Seed != 7 || st2.Methods[0].On || !st2.Methods[1].On || st2.Sim != *sim {
		t.Errorf("restored %+v", st2)
	}
	if _, err := ParseSession([]byte(`{"version":1,"k2":5,"methods":["evil"],"preset":"fast"}`)); err == nil || !strings.Contains(err.Error(), "the session's method") {
		t.Errorf("bad method: %v", err)
	}
	if _, err := ParseSession([]byte(`{"version":9}`)); err == nil {
		t.Error("version 9 accepted")
	}
}
