package accuracy

import (
	"fmt"

	"github.com/cleanex/cleanex/internal/scores"
)

// ObservedAndSubset returns what NewSample(m, d) followed by Subset(classes)
// gives, bit for bit: the observed curve of all of m (the truth of a
// simulated or real world) and the Sample of the given classes (a pilot
// drawn from it), with the direction used. It reads m one oriented row at a
// time and never builds the Sample of all of m, which would hold two more
// copies of its N × K scores (oriented, and sorted without the correct
// one): for a world of 50,000 points and 7,000 classes, 5.6 GB. R_x is
// counted on each row (incorrect scores strictly below the correct one,
// ties lose), as the sorted row gives it, and the weights are summed per
// R_x in the order of the points, as Observed sums them; m must hold no
// NaN, as no parsed matrix does.
func ObservedAndSubset(m *scores.Matrix, d scores.Direction, classes []int) (Curve, *Sample, scores.Direction, error) {
	k := m.K()
	if k < 2 || len(classes) < 2 {
		return nil, nil, d, ErrTooFewClasses
	}
	newIndex, err := classIndex(k, classes)
	if err != nil {
		return nil, nil, d, err
	}
	sizes := m.ClassSizes()
	for y, r := range sizes {
		if r == 0 {
			return nil, nil, d, fmt.Errorf("class %d has no points", y)
		}
	}
	d = m.Resolve(d)
	o := Orient(m, d)
	byR := make([]float64, k)
	row := make([]float64, k)
	n := 0
	for _, c := range classes {
		n += sizes[c]
	}
	labels := make([]int, 0, n)
	sub := make([]float64, 0, n*len(classes))
	for i, y := range m.Labels {
		o.Row(row, m.Row(i))
		c := row[y]
		r := 0
		for j, v := range row {
			if j != y && v < c {
				r++
			}
		}
		byR[r] += 1 / float64(k*sizes[y])
		if newIndex[y] >= 0 {
			labels = append(labels, newIndex[y])
			for _, cl := range classes {
				sub = append(sub, row[cl])
			}
		}
	}
	s, err := build(len(classes), labels, sub)
	if err != nil {
		return nil, nil, d, err
	}
	o.Mark(s)
	return ObservedByR(byR, k), s, d, nil
}
