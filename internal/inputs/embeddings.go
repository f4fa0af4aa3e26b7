package inputs

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"codeberg.org/sbinet/npyio/npz"

	"github.com/cleanex/cleanex/internal/embed"
	"github.com/cleanex/cleanex/internal/scores"
)

// The arrays of an embeddings .npz, named as numpy.savez names them
// (numpy.savez(f, test=X, test_labels=y, train=T, train_labels=t)).
const (
	testNPY          = "test.npy"
	testLabelsNPY    = "test_labels.npy"
	trainNPY         = "train.npy"
	trainLabelsNPY   = "train_labels.npy"
	galleryNPY       = "gallery.npy"
	galleryLabelsNPY = "gallery_labels.npy"
)

// EmbeddingArrays returns the names of the arrays an embeddings .npz may
// hold (docs/embeddings.md), besides the optional classes.npy.
func EmbeddingArrays() []string {
	return []string{testNPY, testLabelsNPY, trainNPY, trainLabelsNPY, galleryNPY, galleryLabelsNPY}
}

// The reference sets an embeddings file can give (ReferenceSet).
const (
	// SetTrain: training embeddings, scored by default by their class
	// centroids.
	SetTrain = "train"
	// SetGallery: a gallery, scored by default by its one item per class
	// (embed.OneShot) or its nearest item (embed.Nearest).
	SetGallery = "gallery"
)

// embedSource says where the embeddings of a Data came from, for messages.
type embedSource struct {
	// refSet is SetTrain or SetGallery.
	refSet string
	// csv is true for an embeddings CSV, false for an .npz.
	csv bool
	// testRows and refRows hold, for a CSV, the row (line of the file,
	// the header is row 1) of each test and reference embedding.
	testRows, refRows []int
	// coords names a CSV's coordinate columns.
	coords []string
}

// ReferenceSet returns SetTrain or SetGallery, the kind of reference
// embeddings the file gave, or "" when d holds no embeddings.
func (d *Data) ReferenceSet() string {
	if d.Embeddings == nil || d.embedded == nil {
		return ""
	}
	return d.embedded.refSet
}

// defaultScoring sets p's metric and reference to the defaults of a file
// giving refSet: Euclidean; Centroid for training embeddings, OneShot for
// a gallery of exactly one item per class, Nearest for another gallery.
func defaultScoring(p *embed.Problem, refSet string) {
	p.Metric, p.Reference = embed.Euclidean, embed.Centroid
	if refSet != SetGallery {
		return
	}
	count := make([]int, len(p.Classes))
	for _, y := range p.References.Labels {
		count[y]++
	}
	p.Reference = embed.OneShot
	for _, c := range count {
		if c != 1 {
			p.Reference = embed.Nearest
			return
		}
	}
}

// CheckEmbeddings checks d's embeddings under their current metric and
// reference (which a caller may have changed since Read), naming the
// place as the file does: every coordinate finite; for cosine, no test
// embedding (and no gallery item scored by itself) all zeros; then
// embed.Problem.Check's class checks (a class without a reference
// embedding, a one-shot gallery with more than one item per class, ...),
// wrapped with the label arrays or column. It returns nil when d holds no
// embeddings.
func (d *Data) CheckEmbeddings() error {
	return d.checkEmbeddings(true)
}

// checkEmbeddings is CheckEmbeddings; without scale it passes over the
// check that depends on the metric a caller may still change (coordinates
// too small for Euclidean distances, embed.CheckScale), as Read does.
func (d *Data) checkEmbeddings(scale bool) error {
	p, src := d.Embeddings, d.embedded
	if p == nil || src == nil {
		return nil
	}
	big := 0.0
	for _, set := range []struct {
		s   embed.Set
		ref bool
	}{{p.Test, false}, {p.References, true}} {
		for i := range set.s.N() {
			row := set.s.Row(i)
			for j, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return src.coordError(set.ref, i, j, fmt.Errorf("%w: %v; every coordinate must be a finite number", scores.ErrNotFinite, v))
				}
				if math.Abs(v) > embed.MaxCoordinate {
					return src.coordError(set.ref, i, j, fmt.Errorf("%v is too large for distances between embeddings (at most %g in absolute value); divide every coordinate by a power of ten", v, embed.MaxCoordinate))
				}
				big = max(big, math.Abs(v))
			}
			if p.Metric == embed.Cosine && (!set.ref || p.Reference != embed.Centroid) && allZero(row) {
				return src.rowError(set.ref, i, fmt.Errorf("the embedding is all zeros, so its cosine similarity is undefined; drop it or use the euclidean metric"))
			}
		}
	}
	if err := embed.CheckScale(p.Metric, big); err != nil && scale {
		if src.csv {
			return &scores.ParseError{Err: err}
		}
		return &Error{File: testNPY + " and " + src.refArray(), Err: err}
	}
	if err := p.Check(); err != nil && (scale || !errors.Is(err, embed.ErrTooSmall) && !errors.Is(err, embed.ErrAllZero)) {
		if src.csv {
			return &scores.ParseError{Column: "label", Err: err}
		}
		return &Error{File: testLabelsNPY + " and " + src.refLabels(), Err: err}
	}
	return nil
}

func allZero(v []float64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// refArray and refLabels name the reference arrays of an .npz.
func (s *embedSource) refArray() string { return s.refSet + ".npy" }

func (s *embedSource) refLabels() string { return s.refSet + "_labels.npy" }

// rowError names embedding i of the test set (ref false) or the
// references: `test.npy: point 17` or `train.npy: row 3` in an .npz, the
// row of a CSV.
func (s *embedSource) rowError(ref bool, i int, err error) error {
	if s.csv {
		rows := s.testRows
		if ref {
			rows = s.refRows
		}
		return &scores.ParseError{Row: rows[i], Err: err}
	}
	if ref {
		return &Error{File: s.refArray(), At: fmt.Sprintf("row %d", i), Err: err}
	}
	return &Error{File: testNPY, At: fmt.Sprintf("point %d", i), Err: err}
}

// coordError names coordinate j of embedding i, as rowError does, with
// `coordinate 3` in an .npz and the column in a CSV.
func (s *embedSource) coordError(ref bool, i, j int, err error) error {
	e := s.rowError(ref, i, err)
	switch e := e.(type) {
	case *scores.ParseError:
		e.Column = s.coords[j]
	case *Error:
		e.At += fmt.Sprintf(", coordinate %d", j)
	}
	return e
}

// readEmbeddingsNPZ reads the .npz of size bytes in ra as embeddings when
// it holds an embeddings array (test.npy, train.npy, gallery.npy or their
// labels) and no scores.npy; ok is false for any other archive, which
// decodeNPZ reads.
func readEmbeddingsNPZ(ra io.ReaderAt, size int64) (d *Data, ok bool, err error) {
	zr, err := npz.NewReader(ra, size)
	if err != nil {
		return nil, false, nil
	}
	has := map[string]bool{}
	for _, k := range zr.Keys() {
		has[k] = true
	}
	if has[scoresNPY] || !slices.ContainsFunc(EmbeddingArrays(), func(name string) bool { return has[name] }) {
		return nil, false, nil
	}
	d, err = decodeEmbeddingsNPZ(zr, has)
	return d, true, err
}

// savezHint is how to save an embeddings .npz, for messages.
const savezHint = "numpy.savez(f, test=X, test_labels=y, train=T, train_labels=t), or gallery=G, gallery_labels=g instead of train"

// decodeEmbeddingsNPZ reads the embeddings arrays of an .npz: test.npy (N x
// d floats), test_labels.npy (N integers or strings), train.npy and
// train_labels.npy or gallery.npy and gallery_labels.npy, optionally
// classes.npy (K names).
func decodeEmbeddingsNPZ(zr *npz.Reader, has map[string]bool) (*Data, error) {
	src := &embedSource{refSet: SetTrain}
	switch {
	case has[trainNPY] || has[trainLabelsNPY]:
		if has[galleryNPY] || has[galleryLabelsNPY] {
			return nil, &Error{Err: fmt.Errorf("%w: the .npz holds both training embeddings (train) and a gallery (gallery): give one of them, the references the test embeddings are scored against", ErrConflict)}
		}
	case has[galleryNPY] || has[galleryLabelsNPY]:
		src.refSet = SetGallery
	default:
		return nil, &Error{Err: fmt.Errorf("%w: the .npz holds test embeddings but no references to score them against; add training embeddings (class centroids) or a gallery: %s", ErrMissing, savezHint)}
	}
	for _, name := range []string{testNPY, testLabelsNPY, src.refArray(), src.refLabels()} {
		if !has[name] {
			return nil, &Error{Err: fmt.Errorf("%w: the .npz holds embeddings but no %s; save it too: %s", ErrMissing, name, savezHint)}
		}
	}
	var arrays [4]*npArray
	for i, name := range []string{testNPY, src.refArray(), testLabelsNPY, src.refLabels()} {
		a, err := readMember(zr, name)
		if err != nil {
			return nil, err
		}
		arrays[i] = a
	}
	test, ref, testLabels, refLabels := arrays[0], arrays[1], arrays[2], arrays[3]
	for _, a := range []*npArray{test, ref} {
		if len(a.shape) != 2 {
			return nil, &Error{File: a.name, Err: fmt.Errorf("%w %s: want a 2-D array of embeddings, one row of d coordinates each (N x d)", ErrShape, shapeString(a.shape))}
		}
		if a.kind != 'f' {
			return nil, &Error{File: a.name, Err: fmt.Errorf("%w: dtype %s: embeddings must be floating-point (float16, float32 or float64); convert them with a.astype(numpy.float32)", ErrType, a.dtype)}
		}
		if a.shape[0] == 0 || a.shape[1] == 0 {
			return nil, &Error{File: a.name, Err: fmt.Errorf("%w: shape %s holds no embeddings; give at least one row of at least one coordinate", scores.ErrNoData, shapeString(a.shape))}
		}
	}
	if ref.shape[1] != test.shape[1] {
		return nil, &Error{File: ref.name, Err: fmt.Errorf("%w %s: its embeddings have dimension %d but those of %s %d; embed both with the same model", ErrShape, shapeString(ref.shape), ref.shape[1], test.name, test.shape[1])}
	}
	for _, pair := range [][2]*npArray{{testLabels, test}, {refLabels, ref}} {
		l, v := pair[0], pair[1]
		if len(l.shape) != 1 || l.shape[0] != v.shape[0] {
			return nil, &Error{File: l.name, Err: fmt.Errorf("%w %s: want %d labels (a 1-D array, one per row of %s), the class of each embedding", ErrShape, shapeString(l.shape), v.shape[0], v.name)}
		}
	}
	var classes []string
	if has[classesNPY] {
		c, err := readMember(zr, classesNPY)
		if err != nil {
			return nil, err
		}
		if len(c.shape) != 1 || c.shape[0] < 2 {
			return nil, &Error{File: c.name, Err: fmt.Errorf("%w %s: want a 1-D array of the K >= 2 class names", ErrShape, shapeString(c.shape))}
		}
		if c.kind != 'U' && c.kind != 'S' {
			return nil, &Error{File: c.name, Err: fmt.Errorf("%w: dtype %s: class names must be strings; convert them with classes.astype(str)", ErrType, c.dtype)}
		}
		if classes, err = strs(c); err != nil {
			return nil, err
		}
		if err := checkNames(classes); err != nil {
			err.File = c.name
			return nil, err
		}
	}
	labels, classes, err := embedLabels([]*npArray{testLabels, refLabels}, classes)
	if err != nil {
		return nil, err
	}
	d := test.shape[1]
	p := &embed.Problem{
		Classes:    classes,
		Test:       embed.Set{D: d, Vectors: floats(test.data), Labels: labels[0]},
		References: embed.Set{D: d, Vectors: floats(ref.data), Labels: labels[1]},
	}
	if err := everyClassUsed(p, func(name string) error {
		if has[classesNPY] {
			return &Error{File: classesNPY, Err: fmt.Errorf("%w: class %s has no test embedding and no reference embedding; drop it from %s", ErrMissing, quoted(name), classesNPY)}
		}
		return &Error{File: testLabelsNPY + " and " + src.refLabels(), Err: fmt.Errorf("%w: no embedding has the class index %s: without %s integer labels are class indices 0..K-1, each used; renumber them, or save the class names: classes=names", ErrMissing, name, classesNPY)}
	}); err != nil {
		return nil, err
	}
	defaultScoring(p, src.refSet)
	data := &Data{Embeddings: p, embedded: src}
	if err := data.checkEmbeddings(false); err != nil {
		return nil, err
	}
	return data, nil
}

// embedLabels turns the label arrays (test labels first, then the
// references') into class indices. With classes (from classes.npy),
// integer labels index it and string labels must be among it. Without,
// string labels name the classes in order of first appearance over the
// arrays in order, and integer labels are indices 0..K-1, K the largest
// plus one, named "0".."K-1". All arrays must hold integers, or all
// strings.
func embedLabels(arrays []*npArray, classes []string) ([][]int, []string, error) {
	kind := byte(0)
	for _, a := range arrays {
		k := a.kind
		switch k {
		case 'i', 'u':
			k = 'i'
		case 'U', 'S':
			k = 'U'
		default:
			return nil, nil, &Error{File: a.name, Err: fmt.Errorf("%w: dtype %s: labels must be integer class indices or class names; convert them with labels.astype(int) or labels.astype(str)", ErrType, a.dtype)}
		}
		if kind != 0 && k != kind {
			return nil, nil, &Error{File: a.name, Err: fmt.Errorf("%w: its labels are %s but those of %s %s; give every set's labels as class indices, or every set's as names", ErrType, kindName(k), arrays[0].name, kindName(kind))}
		}
		kind = k
	}
	out := make([][]int, len(arrays))
	given := classes != nil
	if kind == 'i' {
		total := 0
		for _, a := range arrays {
			total += a.shape[0]
		}
		k := len(classes)
		if !given {
			k = total // a bound: every class needs a labelled embedding
		}
		hi := int64(-1)
		for n, a := range arrays {
			v, _ := ints(a.data)
			out[n] = make([]int, len(v))
			for i, y := range v {
				if y < 0 || y >= int64(k) {
					if given {
						return nil, nil, &Error{File: a.name, At: fmt.Sprintf("row %d", i), Err: fmt.Errorf("%w %s: integer labels are indices into %s, 0..%d", scores.ErrUnknown, labelText(a.data, i, y), classesNPY, k-1)}
					}
					return nil, nil, &Error{File: a.name, At: fmt.Sprintf("row %d", i), Err: fmt.Errorf("%w %s: without %s integer labels are class indices 0..K-1, each used by some embedding; renumber them, or save the class names: classes=names", scores.ErrUnknown, labelText(a.data, i, y), classesNPY)}
				}
				out[n][i] = int(y)
				hi = max(hi, y)
			}
		}
		if !given {
			classes = make([]string, hi+1)
			for j := range classes {
				classes[j] = strconv.Itoa(j)
			}
		}
		return out, classes, nil
	}
	index := classIndex(classes)
	for n, a := range arrays {
		names, err := strs(a)
		if err != nil {
			return nil, nil, err
		}
		out[n] = make([]int, len(names))
		for i, name := range names {
			if name == "" {
				return nil, nil, &Error{File: a.name, At: fmt.Sprintf("row %d", i), Err: fmt.Errorf("%w: the label is empty; give the embedding's class", scores.ErrEmptyCell)}
			}
			y, ok := index[name]
			switch {
			case !ok && given:
				return nil, nil, &Error{File: a.name, At: fmt.Sprintf("row %d", i), Err: fmt.Errorf("%w %s: it must be one of the %d names in %s", scores.ErrUnknown, quoted(name), len(index), classesNPY)}
			case !ok:
				y = len(classes)
				index[name] = y
				classes = append(classes, name)
			}
			out[n][i] = y
		}
	}
	return out, classes, nil
}

func kindName(k byte) string {
	if k == 'i' {
		return "integers"
	}
	return "strings"
}

// everyClassUsed returns fail(name) for the first class of p that no test
// or reference embedding names (embed.Problem.Check would call it a class
// without references or without test points).
func everyClassUsed(p *embed.Problem, fail func(name string) error) error {
	used := make([]bool, len(p.Classes))
	for _, s := range []embed.Set{p.Test, p.References} {
		for _, y := range s.Labels {
			used[y] = true
		}
	}
	for y, u := range used {
		if !u {
			return fail(p.Classes[y])
		}
	}
	return nil
}
