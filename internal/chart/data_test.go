package chart

import "math"

// curve returns k = 2..kmax and a smooth accuracy curve falling from about
// 0.99 at k = 2 like a - b·log k, bounded to [0, 1] — the shape of the
// paper's curves, for drawing tests.
func curve(kmax int, a, b float64) (x, y []float64) {
	for k := 2; k <= kmax; k++ {
		x = append(x, float64(k))
		y = append(y, math.Max(0, math.Min(1, a-b*math.Log(float64(k)))))
	}
	return x, y
}

// realistic returns the series of a simulation with k1 = 100, k2 = 2000:
// observed up to k1, four methods and the truth up to k2.
func realistic() []Series {
	ox, oy := curve(100, 1.06, 0.1)
	tx, ty := curve(2000, 1.06, 0.1)
	for i := range oy {
		oy[i] = math.Min(1, oy[i]+0.03) // a pilot's observed curve lies near, not on, the truth
	}
	ss := []Series{{Name: "observed", X: ox, Y: oy}}
	for i, m := range []string{"plugin", "kde", "regression", "cleanex"} {
		x, y := curve(2000, 1.06+0.01*float64(i-2), 0.1-0.006*float64(i))
		ss = append(ss, Series{Name: m, X: x, Y: y})
	}
	return append(ss, Series{Name: "truth", Dashed: true, X: tx, Y: ty})
}

// roc returns reversed-ROC corner points of n points with C_x spread like
// 1 - u^p (weights 1/n), for drawing tests.
func roc(n int, p float64) (x, y []float64) {
	x, y = []float64{0}, []float64{0}
	for i := 1; i <= n; i++ {
		x = append(x, math.Pow(float64(i)/float64(n), p))
		y = append(y, float64(i)/float64(n))
	}
	return x, y
}

// loss returns a decaying, noisy-looking training loss over n steps.
func loss(n int) (x, y []float64) {
	for i := range n {
		x = append(x, float64(i+1))
		y = append(y, 0.02+0.7*math.Exp(-float64(i)/300)*(1+0.04*math.Sin(float64(i)*0.7)))
	}
	return x, y
}
