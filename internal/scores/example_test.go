package scores_test

import (
	"fmt"
	"strings"

	"github.com/cleanex/cleanex/internal/scores"
)

func ExampleParse() {
	// Semicolon-delimited, with a quoted class name and CRLF line ends.
	csv := "label;\"cat, tabby\";dog\r\n\"cat, tabby\";0.9;0.2\r\ndog;0.4;0.7\r\ndog;0.1;0.3\r\n"
	m, err := scores.Parse(strings.NewReader(csv))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.N(), "points,", m.K(), "classes:", m.Classes)
	fmt.Println("class sizes:", m.ClassSizes())
	d := m.Resolve(scores.Auto)
	fmt.Println("direction:", d, "pairs won:", m.PairWins(d))

	// A malformed file: the error names the row (line) and the column.
	_, err = scores.Parse(strings.NewReader("label,a,b\na,0.5,0.1\nb,0.2,n/a\n"))
	fmt.Println(err)
	// Output:
	// 3 points, 2 classes: [cat, tabby dog]
	// class sizes: [1 2]
	// direction: higher pairs won: 3
	// row 3, column "b": not a number: "n/a"; scores are plain decimal numbers like 0.25 or -1.5e-3
}
