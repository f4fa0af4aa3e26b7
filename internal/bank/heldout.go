package bank

// heldOutFamily is a simulated family outside the bank: the recommendation's
// calibration never sees it, so its coverage is an out-of-sample check of the
// calibration on settings the bank lacks (another dimension, another number
// of points per class, a larger population).
type heldOutFamily struct {
	name   string
	d, r   int
	k      int
	sigma2 [2]float64
	// seedBase separates the families' world seeds from each other and from
	// the bank's.
	seedBase uint64
}

// heldOutFamilies lists the held-out families: d = 4 with r = 5 points per
// class, d = 7 with r = 20, and d = 5 (the paper's noise levels) with a
// population of K = 5,000 classes, so that k2 / k1 reaches 100 (the bank's
// largest ratio is 40).
func heldOutFamilies() []heldOutFamily {
	return []heldOutFamily{
		{name: "out-d4-r5", d: 4, r: 5, k: PopulationK, sigma2: [2]float64{0.05, 0.1}, seedBase: 40_000_000},
		{name: "out-d7-r20", d: 7, r: 20, k: PopulationK, sigma2: [2]float64{0.2, 0.4}, seedBase: 70_000_000},
		{name: "out-d5-K5000", d: 5, r: simR, k: 5000, sigma2: [2]float64{0.1, 0.2}, seedBase: 55_000_000},
	}
}

// HeldOut returns the pilots of the held-out simulated families whose name is
// one of families (all when empty) and whose k1 is one of k1s (all when
// empty), built as the bank's simulated families are (simPilots).
func HeldOut(families []string, k1s []int) []Pilot {
	var out []Pilot
	for _, f := range heldOutFamilies() {
		for _, p := range simPilots(f.name, f.d, f.r, f.k, f.sigma2, f.seedBase) {
			if p.selected(families, k1s) {
				out = append(out, p)
			}
		}
	}
	return out
}
