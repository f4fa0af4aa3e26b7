// Package regress is the regression baseline of Zheng, Achanta & Benjamini
// (2018, "Extrapolating expected accuracies for large multi-class problems"):
// the curve is a non-negative mixture of Gaussian-probit basis curves fitted to
// the observed curve.
//
// With C_x the chance that x's correct class outscores one random incorrect
// class, the expected accuracy at k classes is A_k = E_x[C_x^(k-1)]
// = 1 - (k-1) ∫ D(u) u^(k-2) du, D the distribution of C_x. The method models
// Phi^-1(C_x) as a mixture of N(mu_j, s^2) components plus a point mass at +inf
// (C_x = 1), so that
//
//	A_k = beta_0 + sum_j beta_j b_j(k),  b_j(k) = E[Phi(Z)^(k-1)], Z ~ N(mu_j, s^2),
//
// with beta >= 0 fitted by non-negative least squares to the observed curve
// Abar_k, k = 2..k1, and the bandwidth s in {0.1, ..., 1.0} chosen by
// bootstrap cross-validation on subsamples of about k1/2 classes.
package regress

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/draw"
	"github.com/cleanex/cleanex/internal/estimate"
)

// DefaultBoot is the number of bootstrap subsamples when Estimator.Boot is 0,
// as in Zheng et al.
const DefaultBoot = 25

// stream is the PCG stream (its second seed word; the first is
// Estimator.Seed) that draws the bootstrap subsamples.
const stream = 0x72656772_65737300 // "regress\x00"

// Bandwidths returns the candidate bandwidths s = 0.1, 0.2, ..., 1.0.
func Bandwidths() []float64 {
	bw := make([]float64, 10)
	for i := range bw {
		bw[i] = float64(i+1) / 10
	}
	return bw
}

// Estimator is the regression method of Zheng et al.
//
// Fit, for a pilot of k1 classes:
//  1. builds, for each s in Bandwidths, the basis b_j(k) (k = 2..k1) on the
//     means mu_j of a symmetric grid from -Phi^-1(1 - 1/k1^2) to
//     +Phi^-1(1 - 1/k1^2) with spacing about s (see meanGrid), plus the
//     constant 1; the integrals are computed by quadrature (see quadRule);
//  2. draws Boot subsamples of h = ceil(k1/2) classes without replacement
//     and, for every s, fits beta >= 0 (Lawson-Hanson NNLS, see nnls) to the
//     subsample's expected observed curve E[Abar^h_k], k = 2..h, and scores
//     the squared error of its prediction min(1, sum_j beta_j b_j(k1))
//     against the full sample's Abar_k1. The expectation is over which
//     incorrect classes each of the subsample's points meets, given the
//     points it holds (Sample.ExpectedSubsetObserved), where Zheng et al.
//     score the subsample's realised curve: it keeps the noise of which
//     classes the subsample holds, not that of which competitors its
//     points meet, and needs only each point's R_x, so a per-point summary
//     gives the same fit as the score matrix (the two variants are
//     compared in docs/recommendation.md);
//  3. takes the s with the smallest mean squared error (the smallest s on a
//     tie), fits beta >= 0 to the
//     full observed curve Abar_k, k = 2..k1, and returns
//     min(1, sum_j beta_j b_j(k)) for k = 2..k2.
//
// Each basis curve lies in [0, 1] and is non-increasing in k, so with beta >= 0
// the prediction is >= 0 and non-increasing. The fit does not force the
// weights to sum to 1, so it may exceed 1 at small k when Abar is near 1; it
// is clamped to 1 there: the true curve is at most 1, so the clamp never moves
// the prediction away from it, and the minimum of a non-increasing curve and a
// constant is still non-increasing.
//
// The method has no per-point C_x, so Result.C is nil. Result.Losses holds,
// per bootstrap subsample, the smallest mean squared cross-validation error
// over s so far.
type Estimator struct {
	// Boot is the number of bootstrap subsamples; 0 means DefaultBoot.
	Boot int
	// Seed seeds the choice of subsamples (math/rand/v2 PCG); a fit is
	// deterministic for a given Seed.
	Seed uint64
}

// Name returns "regression".
func (Estimator) Name() string { return "regression" }

// Fit predicts the curve for k = 2..k2 (see Estimator). It returns ctx.Err()
// if ctx is done between basis columns, before a bootstrap subsample or before
// the final fit, and an error if the sample has fewer than 3 classes (a
// subsample needs 2), if k2 < 2 or if Boot < 0. Progress reports Step
// 1..Boot+1 of Total Boot+1 (one per subsample, then the final fit) with Loss
// the smallest mean squared cross-validation error so far.
func (e Estimator) Fit(ctx context.Context, s *accuracy.Sample, k2 int, progress func(estimate.Progress)) (estimate.Result, error) {
	f, err := e.fit(ctx, s, k2, progress)
	if err != nil {
		return estimate.Result{}, err
	}
	return estimate.Result{Curve: f.curve, Losses: f.losses}, nil
}

// fitted is a fit with the chosen bandwidth, which the accuracy study prints.
type fitted struct {
	curve  accuracy.Curve
	s      float64 // chosen bandwidth
	losses []float64
}

func (e Estimator) fit(ctx context.Context, smp *accuracy.Sample, k2 int, progress func(estimate.Progress)) (*fitted, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	k1 := smp.K
	if k1 < 3 {
		return nil, fmt.Errorf("regression: the bootstrap choice of bandwidth needs at least 3 classes, the sample has %d", k1)
	}
	if k2 < 2 {
		return nil, fmt.Errorf("regression: k2 = %d, want at least 2", k2)
	}
	boot := e.Boot
	if boot == 0 {
		boot = DefaultBoot
	}
	if boot < 0 {
		return nil, fmt.Errorf("regression: Boot = %d, want >= 0", boot)
	}
	obs := smp.Observed
	target := obs[k1]
	h := (k1 + 1) / 2
	mmax := muMax(k1)

	// Per bandwidth: the means, the factored subsample design (basis rows
	// k = 2..h) and the basis row at k1, shared by all subsamples.
	bws := Bandwidths()
	grids := make([][]float64, len(bws))
	designs := make([]*reduced, len(bws))
	atK1 := make([][]float64, len(bws))
	for i, s := range bws {
		grids[i] = meanGrid(mmax, s)
		b, err := newBasis(ctx, grids[i], s, k1)
		if err != nil {
			return nil, err
		}
		designs[i] = newReduced(b.rows(h), h-1, b.cols)
		atK1[i] = slices.Clone(b.row(k1))
	}

	subsamples := draw.New(e.Seed, stream)
	cv := make([]float64, len(bws))
	losses := make([]float64, 0, boot)
	for it := range boot {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		classes := subsamples.Continue(k1, h)
		obsSub, err := smp.ExpectedSubsetObserved(classes)
		if err != nil {
			return nil, fmt.Errorf("regression: bootstrap subsample %d: %w", it+1, err)
		}
		y := obsSub[2 : h+1]
		for i, d := range designs {
			coef, err := d.fit(y)
			if err != nil {
				return nil, fmt.Errorf("regression: bootstrap subsample %d, s = %.1f: %w", it+1, bws[i], err)
			}
			r := math.Min(1, dot(coef, atK1[i])) - target
			cv[i] += r * r
		}
		loss := slices.Min(cv) / float64(it+1)
		losses = append(losses, loss)
		estimate.Report(progress, estimate.Progress{Method: e.Name(), Step: it + 1, Total: boot + 1, Loss: loss})
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i := range cv {
		cv[i] /= float64(boot)
	}
	pick := argMin(cv)

	s := bws[pick]
	b, err := newBasis(ctx, grids[pick], s, k1)
	if err != nil {
		return nil, err
	}
	coef, err := newReduced(b.rows(k1), k1-1, b.cols).fit(obs[2 : k1+1])
	if err != nil {
		return nil, fmt.Errorf("regression: final fit, s = %.1f: %w", s, err)
	}
	curve, err := mixtureCurve(ctx, b.mus, s, coef, k2)
	if err != nil {
		return nil, err
	}
	estimate.Report(progress, estimate.Progress{Method: e.Name(), Step: boot + 1, Total: boot + 1, Loss: cv[pick]})
	return &fitted{curve: curve, s: s, losses: losses}, nil
}

// dot returns sum_j a_j b_j, summed in index order as basis.predict does.
func dot(a, b []float64) float64 {
	v := 0.0
	for j, x := range a {
		v += x * b[j]
	}
	return v
}

// argMin returns the index of the smallest value (the first on a tie).
func argMin(v []float64) int {
	best := 0
	for i, x := range v {
		if x < v[best] {
			best = i
		}
	}
	return best
}
