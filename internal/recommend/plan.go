package recommend

import (
	"fmt"
	"math"
	"slices"

	"github.com/cleanex/cleanex/internal/accuracy"
)

// Job is one fit that the recommendation needs.
type Job struct {
	// Method is a registry name (internal/methods): "regression" or "cleanex".
	Method string
	// Seed is the seed of that fit.
	Seed uint64
}

// Jobs returns the fits of a recommendation seeded by seed: the regression
// with seed, the pooled method, the tail method, KDE (whose curve counts in
// the interval's D_k only), and CleaneX (default preset) with seeds seed,
// seed+1, ..., seed+Seeds-1. The CLI and the page run exactly these, so
// their numbers agree.
func Jobs(seed uint64) []Job {
	jobs := []Job{{Method: "regression", Seed: seed}, {Method: "pooled", Seed: seed}, {Method: "tail", Seed: seed}, {Method: "kde", Seed: seed}}
	for i := range uint64(Seeds) {
		jobs = append(jobs, Job{Method: "cleanex", Seed: seed + i})
	}
	return jobs
}

// Methods returns the registry names of the methods the recommendation
// runs, each once, in Jobs' order: regression, pooled, tail, kde, cleanex
// (all but kde are members of the estimate's median: InMedian).
func Methods() []string {
	var ms []string
	for _, j := range Jobs(0) {
		if !slices.Contains(ms, j.Method) {
			ms = append(ms, j.Method)
		}
	}
	return ms
}

// CheckFit reports why a predicted curve c (k = 0..k2) must not be used as an
// answer, or nil when it may: a value that is not finite or outside [0, 1], a
// curve that rises with k, or, when fitsObserved is true (regression and
// CleaneX, which are fitted to the observed curve), one that misses the
// pilot's exact observed curve at some k <= k1 by more than
//
//	tol_k = max(FitTolerance, 6 ClassSE_k),
//
// which those methods meet on every pilot of the bank unless their fit broke
// down. (The pooled and the tail method estimate each C_x from the scores
// alone and are not fitted to the curve: see FitsObserved.)
func CheckFit(c accuracy.Curve, f Fits, fitsObserved bool) error {
	for k := 2; k < len(c); k++ {
		v := c[k]
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > 1 {
			return fmt.Errorf("its value at k = %d is %v, not an accuracy between 0 and 1", k, v)
		}
		if k > 2 && v > c[k-1]+1e-12 {
			return fmt.Errorf("it rises from %.4f to %.4f between k = %d and %d", c[k-1], v, k-1, k)
		}
	}
	if !fitsObserved {
		return nil
	}
	for k := 2; k <= min(f.K1, len(c)-1); k++ {
		tol := max(FitTolerance, 6*f.ClassSE[k])
		if d := math.Abs(c[k] - f.Observed[k]); d > tol {
			return fmt.Errorf("at k = %d it gives %.3f where the pilot's exact accuracy is %.3f (off by %.3f, more than the %.3f its own classes allow)",
				k, c[k], f.Observed[k], d, tol)
		}
	}
	return nil
}

// FitsObserved reports whether the method called name is fitted to the
// pilot's observed curve (regression and CleaneX), so that CheckFit holds it
// to that curve.
func FitsObserved(name string) bool { return name == "regression" || name == "cleanex" }

// FitTolerance is the smallest gap to the observed curve that CheckFit treats
// as a failed fit.
const FitTolerance = 0.03

// Outcome is a recommendation assembled from the results of Jobs.
type Outcome struct {
	// Result is the recommended curve and its interval; its curves are nil
	// when Err is set.
	Result
	// Err says why there is no recommendation (nil when there is one).
	Err error
	// CleaneX is the mean curve of the CleaneX fits that passed CheckFit
	// (nil when none did): the curve shown as CleaneX's.
	CleaneX accuracy.Curve
	// Failed maps a job's label ("regression", "cleanex seed 3") to why its
	// fit is not used.
	Failed map[string]string
}

// Label names a job for messages: "regression" or "cleanex seed 3".
func (j Job) Label() string {
	if j.Method == "cleanex" {
		return fmt.Sprintf("cleanex seed %d", j.Seed)
	}
	return j.Method
}

// Assemble checks each job's curve (errs[i] is the error of jobs[i], curves[i]
// its curve when errs[i] is nil) with CheckFit against the pilot (f.K1,
// f.Observed, f.ClassSE, f.N; f's curves are ignored), and recommends from the
// fits that pass (see Usable).
func Assemble(f Fits, jobs []Job, curves []accuracy.Curve, errs []error, k2 int, cal Calibration) Outcome {
	in, failed := Usable(f, jobs, curves, errs, k2)
	out := Outcome{Failed: failed}
	if len(in.CleaneX) > 0 { // Usable keeps only curves that reach k2
		out.CleaneX = MeanCurve(in.CleaneX, k2)
	}
	out.Result, out.Err = combine(in, in.CleaneX, out.CleaneX, k2, cal)
	return out
}

// Usable returns the pilot f with the curves of the jobs that succeeded and
// pass CheckFit (covering k = 0..k2), and, by job label, why the others are
// left out.
func Usable(f Fits, jobs []Job, curves []accuracy.Curve, errs []error, k2 int) (Fits, map[string]string) {
	failed := map[string]string{}
	in := f // the pilot's fields; its curves come from the jobs
	in.Regression, in.Pooled, in.Tail, in.KDE, in.CleaneX = nil, nil, nil, nil, nil
	for i, j := range jobs {
		err := errs[i]
		if err == nil {
			if err = CheckFit(curves[i], in, FitsObserved(j.Method)); err == nil && curves[i].Max() < k2 {
				err = fmt.Errorf("its curve stops at k = %d, before k2 = %d", curves[i].Max(), k2)
			}
		}
		if err != nil {
			failed[j.Label()] = err.Error()
			continue
		}
		if c := in.single(j.Method); c != nil {
			*c = curves[i]
		} else if j.Method == "cleanex" {
			in.CleaneX = append(in.CleaneX, curves[i])
		}
	}
	return in, failed
}
