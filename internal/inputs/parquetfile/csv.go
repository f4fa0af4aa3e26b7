package parquetfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/summary"
)

// WriteCSV reads file, a Parquet pilot (long or wide form) or a
// gzip-compressed one, as the command line reads it (inputs.Reader with
// Decoder: the same validation and the same errors), and writes its score
// matrix to w as a wide CSV (scores.WriteCSV: shortest exact floats), which
// scores.Parse and inputs.Read read back to the same matrix, bit for bit.
// The page converts Parquet this way in a Web Worker of its own
// (wasm/parquet), so that its compute workers need no Parquet reader.
//
// Class names the CSV reader would not read back as they are (a class
// named "label", a line break or NUL in a name, the columns of a per-point
// summary) are refused with an *inputs.Error naming the class. A file that
// is neither Parquet nor gzip is refused with an *inputs.Error wrapping
// inputs.ErrFormat (a gzip file holding a CSV or an .npz pilot is converted
// too). Nothing is written when the file is refused.
func WriteCSV(w io.Writer, file []byte) error {
	f, err := inputs.Detect(file[:min(len(file), scores.SniffBytes)])
	if err != nil || f != inputs.Parquet && f != inputs.Gzip {
		return notParquet()
	}
	d, err := inputs.Reader{Parquet: Decoder{}}.Read(bytes.NewReader(file))
	if err != nil {
		return err
	}
	if d.Matrix == nil {
		return &inputs.Error{Err: fmt.Errorf("%w: this gzip file holds a per-point summary or embeddings, not a Parquet pilot; give it as it is, not through the Parquet reader", inputs.ErrFormat)}
	}
	if err := csvNames(d.Matrix.Classes); err != nil {
		return err
	}
	return scores.WriteCSV(w, d.Matrix)
}

// notParquet is the error of a file WriteCSV is given that is no Parquet
// pilot.
func notParquet() error {
	return &inputs.Error{Err: fmt.Errorf("%w: this is not a Parquet file (nor a gzip-compressed one)", inputs.ErrFormat)}
}

// csvNames refuses class names that a CSV header cannot carry to
// scores.Parse unchanged: "label" in any case (it would be taken for the
// label column), names with a NUL byte, a carriage return or a line feed
// (refused, or changed by the line-end handling), names with spaces around
// them (trimmed; Decode trims them already), and the classes of a
// per-point summary's header, "correct", "below" and "ties" with one of
// "m2", "maxabs", "top1" and "q1" (inputs.Read would take the CSV for a
// summary: summary.IsHeader).
func csvNames(classes []string) error {
	fix := "; rename the class, or give the file to the command line (cleanex predict --k2 N FILE.parquet)"
	for j, c := range classes {
		at := fmt.Sprintf("class %d (%s)", j, quoted(c))
		switch {
		case strings.EqualFold(strings.TrimSpace(c), "label"):
			return &inputs.Error{At: at, Err: fmt.Errorf("%w: a class named label cannot be read here, where label names the column of the true classes%s", scores.ErrDuplicate, fix)}
		case strings.ContainsAny(c, "\x00\r\n"):
			return &inputs.Error{At: at, Err: fmt.Errorf("%w: a class name holding a line break or a NUL byte cannot be read here%s", scores.ErrEncoding, fix)}
		case strings.TrimSpace(c) != c:
			return &inputs.Error{At: at, Err: errors.New("a class name with spaces around it cannot be read here" + fix)}
		}
	}
	if summary.IsHeader(append([]string{"label"}, classes...)) {
		return &inputs.Error{Err: fmt.Errorf("%w: classes named correct, below and ties with m2, maxabs, top1 or q1 cannot be read here, where they mark a per-point summary%s", scores.ErrDuplicate, fix)}
	}
	return nil
}
