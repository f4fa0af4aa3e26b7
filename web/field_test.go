package web

import "testing"

// TestSetFields: a form field's text that can be read is stored and clears an
// earlier message about a field; text that cannot keeps the value and says
// what was typed, what the field keeps and what to type. A seed keeps all of
// its 64 bits.
func TestSetFields(t *testing.T) {
	s := NewState()
	seed := uint64(7)
	for _, tc := range []struct {
		text  string
		ok    bool
		seed  uint64
		error string
	}{
		{"18446744073709551615", true, 18446744073709551615, ""},
		{"12x", false, 18446744073709551615, `Not changed: random seed: "12x" is not a whole number from 0 to 18446744073709551615, so it stays 18446744073709551615. Type a whole number from 0 to 18446744073709551615 there.`},
		{" 42 ", true, 42, ""},
		{"-1", false, 42, `Not changed: random seed: "-1" is not a whole number from 0 to 18446744073709551615, so it stays 42. Type a whole number from 0 to 18446744073709551615 there.`},
		{"18446744073709551616", false, 42, `Not changed: random seed: "18446744073709551616" is not a whole number from 0 to 18446744073709551615, so it stays 42. Type a whole number from 0 to 18446744073709551615 there.`},
	} {
		if ok := s.SetUint("random seed", &seed, tc.text); ok != tc.ok || seed != tc.seed || s.Error != tc.error {
			t.Errorf("SetUint(%q) = %v: seed %d, Error %q; want %v, %d, %q", tc.text, ok, seed, s.Error, tc.ok, tc.seed, tc.error)
		}
	}
	d := 5
	if s.SetInt("d", &d, "2.5") || d != 5 || s.Error != `Not changed: d: "2.5" is not a whole number, so it stays 5. Type a whole number there.` {
		t.Errorf("SetInt(2.5): d %d, Error %q", d, s.Error)
	}
	if s.SetInt("d", &d, "") || s.Error != "Not changed: d: the box is empty or holds no number, so it stays 5. Type a whole number there." {
		t.Errorf("SetInt(\"\"): Error %q", s.Error)
	}
	sigma2 := 0.1
	for _, text := range []string{"NaN", "Inf", "0,2"} {
		if s.SetFloat("σ²", &sigma2, text) || sigma2 != 0.1 {
			t.Errorf("SetFloat(%q) = true or σ² %v, want false and 0.1", text, sigma2)
		}
	}
	if !s.SetFloat("σ²", &sigma2, "2e-1") || sigma2 != 0.2 || s.Error != "" {
		t.Errorf("SetFloat(2e-1): σ² %v, Error %q; want 0.2 and no message", sigma2, s.Error)
	}
	// A message that is not about a field stays when a field is read.
	s.Error = "The file could not be read."
	if !s.SetInt("d", &d, "3") || d != 3 || s.Error != "The file could not be read." {
		t.Errorf("SetInt(3): d %d, Error %q; want 3 and the file's message kept", d, s.Error)
	}
}

// TestActionNoteOrder: an action that ends later (an image made) writes its
// note only if no other action began or set one since, so the line says what
// the last action did.
func TestActionNoteOrder(t *testing.T) {
	s := NewState()
	png := s.BeginNote()
	s.SetNote("Saved pilot-session.json.")
	s.EndNote(png, "Saved pilot-accuracy.png.")
	if s.ActionNote != "Saved pilot-session.json." {
		t.Errorf("after an image begun, a session saved, then the image done: note %q, want the session's", s.ActionNote)
	}
	png = s.BeginNote()
	s.EndNote(png, "Saved pilot-accuracy.png.")
	if s.ActionNote != "Saved pilot-accuracy.png." {
		t.Errorf("after an image begun and done: note %q, want the image's", s.ActionNote)
	}
	first, second := s.BeginNote(), s.BeginNote()
	s.EndNote(second, "Link copied.")
	s.EndNote(first, "Saved pilot-accuracy.png.")
	if s.ActionNote != "Link copied." {
		t.Errorf("two actions ending out of order: note %q, want the later action's", s.ActionNote)
	}
}
