package bank

import (
	"fmt"

	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/simulate"
)

// lowerIsBetter is the direction of simulated scores (Euclidean distances).
const lowerIsBetter = scores.Lower

// simFamily is a simulated family: one dimension d, r points per class,
// worlds of k classes, two noise levels, every combination of class and
// point distributions.
type simFamily struct {
	name   string
	d, r   int
	k      int
	sigma2 [2]float64
	// group and tau2, when group[i] > 1, make the worlds of noise level i
	// grouped (simulate.Config.Group and Tau2): classes come in groups of
	// group[i] whose centres lie within τ² = tau2[i] of their group's.
	group [2]int
	tau2  [2]float64
	// k1s are the pilot sizes, K1s when nil.
	k1s []int
	// seedBase separates the families' world seeds.
	seedBase uint64
}

// simFamilies lists the bank's simulated families, r = simR and k =
// PopulationK. The noise levels give, at K = 2000 and r = 10 (normal classes
// and points), accuracies of about 0.38 and 0.19 (d = 3), 0.44 and 0.24
// (d = 5, the paper's 0.1 and 0.2) and 0.51 and 0.25 (d = 10), so the
// accuracy at K = 2000 spans roughly 0.2-0.5 (as in the paper's d = 5
// settings).
func simFamilies() []simFamily {
	return []simFamily{
		{name: "sim-d3", d: 3, r: simR, k: PopulationK, sigma2: [2]float64{0.02, 0.05}, seedBase: 3_000_000},
		{name: "sim-d5", d: 5, r: simR, k: PopulationK, sigma2: [2]float64{0.1, 0.2}, seedBase: 5_000_000},
		{name: "sim-d10", d: 10, r: simR, k: PopulationK, sigma2: [2]float64{0.4, 0.8}, seedBase: 10_000_000},
	}
}

// simR is the number of points per class in the simulated worlds (the paper's).
const simR = 10

// pilots returns the family's pilots, 32 with the bank's sizes: for each k1
// in f.k1s (K1s when nil), each of the
// 2 x 2 class and point distribution pairs and each noise level (with its
// grouping, if any), one world of
// f.k classes with f.r points each and its own seed (seedBase + 1, +2, ...),
// and one pilot of k1 classes drawn from it.
func (f simFamily) pilots() []Pilot {
	var ps []Pilot
	dists := []simulate.Dist{simulate.Normal, simulate.Uniform}
	i := uint64(0)
	k1s := f.k1s
	if k1s == nil {
		k1s = K1s
	}
	for _, k1 := range k1s {
		for _, yc := range dists {
			for _, xp := range dists {
				for n, s2 := range f.sigma2 {
					i++
					cfg := simulate.Config{Classes: yc, Points: xp, D: f.d, Sigma2: s2, K: f.k, R: f.r, Seed: f.seedBase + i}
					setting := fmt.Sprintf("Y%c-X%c-s%g", yc.String()[0], xp.String()[0], s2)
					if f.group[n] > 1 {
						cfg.Group, cfg.Tau2 = f.group[n], f.tau2[n]
						setting += fmt.Sprintf("-g%d-t%g", cfg.Group, cfg.Tau2)
					}
					ps = append(ps, Pilot{Family: f.name, Setting: setting, K1: k1, K: f.k,
						Seed: cfg.Seed, sim: &cfg,
						ID: fmt.Sprintf("%s/%s/k%d/w%d", f.name, setting, k1, cfg.Seed)})
				}
			}
		}
	}
	return ps
}
