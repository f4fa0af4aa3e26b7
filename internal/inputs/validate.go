package inputs

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/cleanex/cleanex/internal/scores"
)

// Validate checks what scores.Parse checks on a CSV, for a matrix built from
// another format: at least 2 classes with non-empty, distinct UTF-8 names;
// at least one point; N x K scores, all finite; every label the index of a
// class; every class with at least one point. Points and classes are
// counted from 0 in its messages, as NumPy and pandas count them.
func Validate(m *scores.Matrix) error {
	k, n := len(m.Classes), len(m.Labels)
	if k < 2 {
		return &Error{Err: fmt.Errorf("%w: found %d; a pilot needs at least 2 classes", scores.ErrFewClasses, k)}
	}
	if err := checkNames(m.Classes); err != nil {
		return err
	}
	if n == 0 {
		return &Error{Err: fmt.Errorf("%w: the file holds no test points", scores.ErrNoData)}
	}
	if len(m.Scores) != n*k {
		return &Error{Err: fmt.Errorf("%w: %d scores for %d points x %d classes", ErrShape, len(m.Scores), n, k)}
	}
	for i, y := range m.Labels {
		if y < 0 || y >= k {
			return &Error{At: fmt.Sprintf("point %d", i), Err: fmt.Errorf("%w: label %d is not a class index 0..%d", scores.ErrUnknown, y, k-1)}
		}
	}
	if err := checkFinite(m.Scores, m.Classes); err != nil {
		return err
	}
	if err := checkEveryClass(m.Labels, m.Classes); err != nil {
		return err
	}
	return nil
}

// checkNames refuses class names that are empty, not UTF-8 or repeated.
func checkNames(classes []string) *Error {
	seen := make(map[string]int, len(classes))
	for j, c := range classes {
		switch {
		case c == "":
			return &Error{At: fmt.Sprintf("class %d", j), Err: fmt.Errorf("%w; every class needs a name", scores.ErrEmptyHeader)}
		case !utf8.ValidString(c):
			return &Error{At: fmt.Sprintf("class %d", j), Err: fmt.Errorf("%w in the class name; give names as UTF-8 text", scores.ErrEncoding)}
		}
		if i, dup := seen[c]; dup {
			return &Error{At: fmt.Sprintf("classes %d and %d", i, j), Err: fmt.Errorf("%w: both are %s; class names must be unique", scores.ErrDuplicate, quoted(c))}
		}
		seen[c] = j
	}
	return nil
}

// checkFinite refuses a NaN or infinite score, naming its point and class.
func checkFinite(s []float64, classes []string) *Error {
	k := len(classes)
	for x, v := range s {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &Error{At: pointClass(x/k, x%k, classes[x%k]), Err: notFinite(v)}
		}
	}
	return nil
}

// notFinite is the cause for a score v that is NaN or infinite.
func notFinite(v float64) error {
	return fmt.Errorf("%w: %v; replace it with a finite score", scores.ErrNotFinite, v)
}

// pointClass names score (i, j) of an array: `point 17, class 3 ("cat")`.
func pointClass(i, j int, class string) string {
	return fmt.Sprintf("point %d, class %d (%s)", i, j, quoted(class))
}

// checkEveryClass refuses classes that no point's label names, listing them.
func checkEveryClass(labels []int, classes []string) *Error {
	count := make([]int, len(classes))
	for _, y := range labels {
		count[y]++
	}
	var missing []string
	for j, c := range count {
		if c == 0 {
			missing = append(missing, classes[j])
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return &Error{Err: fmt.Errorf("%w: %s; every class needs at least one point whose label is that class (or drop its scores)", scores.ErrNoPoints, quoteList(missing))}
}

// classIndex maps class names to their index.
func classIndex(classes []string) map[string]int {
	index := make(map[string]int, len(classes))
	for j, c := range classes {
		index[c] = j
	}
	return index
}

// trimName trims the spaces around a class name or label, as scores.Parse
// does.
func trimName(s string) string { return strings.TrimSpace(s) }
