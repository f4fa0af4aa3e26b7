package accuracy

import "fmt"

// SubsetObserved returns the observed curve Abar_k, k = 0..len(classes), of
// the Sample restricted to the given classes: the same curve as
// s.Subset(classes).Observed, with R_x and w_x = 1/(h r_y) recomputed against
// the h = len(classes) classes, but in O(N_sub h) time without building the
// sub-Sample (no sorting), for methods that resample classes many times.
// A Sample built from a summary has no scores to subset (ErrSummarised).
func (s *Sample) SubsetObserved(classes []int) (Curve, error) {
	newIndex, sizes, err := s.subsetSizes(classes)
	if err != nil {
		return nil, err
	}
	h := len(classes)
	if s.summary != nil {
		return nil, fmt.Errorf("subset: %w", ErrSummarised)
	}
	byR := make([]float64, h)
	for i, y := range s.Labels {
		if newIndex[y] < 0 {
			continue
		}
		row := s.scores[i*s.K : (i+1)*s.K]
		c := row[y]
		r := 0
		for _, c2 := range classes {
			// R_x: incorrect scores strictly below c (ties lose); c2 == y never counts.
			if row[c2] < c {
				r++
			}
		}
		byR[r] += 1 / float64(h*sizes[newIndex[y]])
	}
	return ObservedByR(byR, h), nil
}

// ExpectedSubsetObserved returns the expectation of SubsetObserved(classes)
// over which incorrect classes each point meets, given the points the subset
// holds (those of the given classes): the h-1 other classes a point meets
// are a random draw from its K-1, and the chance that k-1 random ones among
// them all lie below it is C(R_x, k-1)/C(K-1, k-1) whatever h is, so
//
//	E[Abar^S_k] = sum_{x in S} w^S_x prod_{i=1..k-1} (R_x + 1 - i)/(K - i),  k = 0..h,
//
// with w^S_x = 1/(h r_y). It needs only R_x, so a Sample built from a
// summary has it too.
func (s *Sample) ExpectedSubsetObserved(classes []int) (Curve, error) {
	newIndex, sizes, err := s.subsetSizes(classes)
	if err != nil {
		return nil, err
	}
	h := len(classes)
	byR := make([]float64, s.K)
	for i, y := range s.Labels {
		if j := newIndex[y]; j >= 0 {
			byR[s.R[i]] += 1 / float64(h*sizes[j])
		}
	}
	return observedByR(byR, s.K, h), nil
}

// subsetSizes maps each of the K classes to its position in classes (-1
// when absent) and counts the points of each of the given classes; fewer
// than 2 classes, an index out of range or repeated, or a class without
// points is an error.
func (s *Sample) subsetSizes(classes []int) (newIndex, sizes []int, err error) {
	if len(classes) < 2 {
		return nil, nil, ErrTooFewClasses
	}
	if newIndex, err = s.subsetIndex(classes); err != nil {
		return nil, nil, err
	}
	sizes = make([]int, len(classes))
	for _, y := range s.Labels {
		if j := newIndex[y]; j >= 0 {
			sizes[j]++
		}
	}
	for j, r := range sizes {
		if r == 0 {
			return nil, nil, fmt.Errorf("class %d has no points", j)
		}
	}
	return newIndex, sizes, nil
}
