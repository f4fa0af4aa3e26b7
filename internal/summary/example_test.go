package summary_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/summary"
)

// Summarise a small score matrix (distances, lower is better) one row per
// point, read the summary back, and check that it gives the same observed
// accuracy curve as the matrix itself.
func Example() {
	m, err := scores.Parse(strings.NewReader(`label,a,b,c
a,0.1,0.9,0.5
a,0.6,0.4,0.8
b,0.7,0.2,0.3
c,0.9,0.8,0.1
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	var buf bytes.Buffer
	if _, err := summary.Write(&buf, m, scores.Lower, summary.DefaultQuantiles); err != nil {
		fmt.Println(err)
		return
	}
	t, err := summary.Parse(&buf)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("classes:", t.Classes)
	fmt.Println("R_x:", t.Sample.R)
	fmt.Printf("observed accuracy at k = 2, 3: %.4f %.4f\n", t.Sample.Observed[2], t.Sample.Observed[3])
	s, _, err := accuracy.NewSample(m, scores.Lower)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("from the matrix:               %.4f %.4f\n", s.Observed[2], s.Observed[3])
	// Output:
	// classes: [a b c]
	// R_x: [2 1 2 2]
	// observed accuracy at k = 2, 3: 0.9167 0.8333
	// from the matrix:               0.9167 0.8333
}
