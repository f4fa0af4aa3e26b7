package inputs_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"strings"

	"github.com/cleanex/cleanex/internal/inputs"
)

func ExampleRead() {
	// A gzip-compressed TSV: the format is detected from the first bytes.
	var tsv bytes.Buffer
	zw := gzip.NewWriter(&tsv)
	zw.Write([]byte("label\tcat\tdog\ncat\t0.9\t0.2\ndog\t0.4\t0.7\ndog\t0.1\t0.3\n"))
	zw.Close()
	d, err := inputs.Read(&tsv)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Matrix.N(), "points,", d.Matrix.K(), "classes:", d.Matrix.Classes, "labels:", d.Matrix.Labels)

	// A malformed file: the error names the place.
	_, err = inputs.Read(strings.NewReader("label,cat,dog\ncat,0.5,0.1\ndog,0.2,NaN\n"))
	fmt.Println(err)
	// Output:
	// 3 points, 2 classes: [cat dog] labels: [0 1 1]
	// row 3, column "dog": not a finite number: "NaN"; replace it with a finite score
}
