// Package simulate generates the paper's simulated classification problems
// (CleaneX paper, Section 5.1; docs/formats.md §4): K class centres y in R^d, r
// points per class around each centre, and as score the Euclidean distance
// from a point to a class centre (lower is better).
//
// A World is a pure function of its Config: the same Config gives the same
// bits natively and under GOOS=js GOARCH=wasm. To make that hold, every random
// number comes from math/rand/v2's PCG, the coordinates are produced in a fixed
// order on one goroutine, and every product that the compiler could fuse into
// a fused multiply-add (which wasm lacks and amd64 with GOAMD64=v3 has) is
// rounded explicitly with a float64 conversion, as the Go spec allows.
// Gaussian draws use rand/v2's NormFloat64 (ziggurat): its only
// architecture-specific call is math.Exp (assembly on amd64), whose result is
// rounded to float32 before a single comparison, and its math.Log tail path
// runs the same IEEE operations in the same order in the amd64 assembly and
// the portable code; the package test pins a hash of generated data and the
// truth curve, so a wasm run of the same test proves the identity. (The truth
// curve is computed by package accuracy with detmath's Exp and Log, the same
// bits everywhere.)
package simulate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/draw"
	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/scores"
)

// Dist names a distribution family for the classes or the points.
type Dist int

const (
	// Normal: classes y ~ N(0, I_d); points x | y ~ N(y, σ² I_d).
	Normal Dist = iota
	// Uniform: classes y ~ U(-√3, √3)^d; points x | y ~ U(y - √(3σ²), y + √(3σ²))
	// coordinate-wise. Both have the same mean and covariance as the Normal case.
	Uniform
)

// String returns "normal" or "uniform".
func (d Dist) String() string {
	if d == Uniform {
		return "uniform"
	}
	return "normal"
}

// ParseDist reads "normal" or "uniform".
func ParseDist(s string) (Dist, error) {
	switch s {
	case "normal":
		return Normal, nil
	case "uniform":
		return Uniform, nil
	}
	return Normal, fmt.Errorf("distribution %q: use normal or uniform", s)
}

// Limits on the size of a World, so a typo cannot ask for terabytes.
const (
	// MaxD is the largest dimension accepted.
	MaxD = 10000
	// MaxK is the largest number of classes accepted.
	MaxK = 1_000_000
	// MaxCoords bounds K·r·d, the number of stored point coordinates (512 MiB of float64).
	MaxCoords = 1 << 26
	// MaxSigma2D bounds sigma2·d. A squared distance sums d squares of about
	// sigma2 z² (|z| stays below 40 in float64 normal draws), so below 1e300 it
	// stays far from float64's largest value, 1.8e308, and every score is finite.
	MaxSigma2D = 1e300
)

// Config describes one simulated problem.
type Config struct {
	// Classes is the distribution of the class centres.
	Classes Dist
	// Points is the distribution of the points around their centre.
	Points Dist
	// D is the dimension d ≥ 1.
	D int
	// Sigma2 is σ² > 0, the per-coordinate variance of the points around their centre.
	Sigma2 float64
	// K is the number of classes (k2 in the paper), K ≥ 2.
	K int
	// R is the number of points per class, r ≥ 1.
	R int
	// Seed selects the random stream.
	Seed uint64
	// Group is the number of classes per group; 0 and 1 give independent
	// centres (the paper's worlds). With Group = g > 1, classes jg, ..., jg +
	// g - 1 share a group centre c_j drawn from Classes, and a class's centre
	// is c_j + τ u with u a further draw from Classes: classes of one group
	// are one another's closest rivals, as breeds of dogs are in a
	// photograph classifier.
	Group int
	// Tau2 is τ², the per-coordinate variance of a class's centre around its
	// group's centre (Group > 1 only; it must then be above 0).
	Tau2 float64
}

// Validate reports the first field that is out of range.
func (c Config) Validate() error {
	switch {
	case c.Classes != Normal && c.Classes != Uniform:
		return fmt.Errorf("simulate: unknown class distribution %d", int(c.Classes))
	case c.Points != Normal && c.Points != Uniform:
		return fmt.Errorf("simulate: unknown point distribution %d", int(c.Points))
	case c.D < 1:
		return fmt.Errorf("simulate: dimension d = %d: it must be at least 1", c.D)
	case c.D > MaxD:
		return fmt.Errorf("simulate: dimension d = %d: at most %d is supported", c.D, MaxD)
	case !(c.Sigma2 > 0) || math.IsInf(c.Sigma2, 0):
		return fmt.Errorf("simulate: sigma2 = %v: it must be a finite number above 0", c.Sigma2)
	case c.Sigma2 > MaxSigma2D/float64(c.D):
		return fmt.Errorf("simulate: sigma2 = %v with d = %d: the squared distances would overflow a 64-bit float; sigma2·d must be at most %g, so use sigma2 <= %.3g", c.Sigma2, c.D, MaxSigma2D, MaxSigma2D/float64(c.D))
	case c.K < 2:
		return fmt.Errorf("simulate: K = %d classes: at least 2 are needed", c.K)
	case c.K > MaxK:
		return fmt.Errorf("simulate: K = %d classes: at most %d are supported", c.K, MaxK)
	case c.R < 1:
		return fmt.Errorf("simulate: r = %d points per class: at least 1 is needed", c.R)
	case c.R > MaxCoords || c.R > MaxCoords/c.K || c.R*c.K > MaxCoords/c.D:
		return fmt.Errorf("simulate: K·r·d = %d·%d·%d point coordinates: at most %d are supported", c.K, c.R, c.D, MaxCoords)
	case c.Group < 0:
		return fmt.Errorf("simulate: group = %d classes: it must be at least 0 (0 and 1: independent classes)", c.Group)
	case c.Group > 1 && (!(c.Tau2 > 0) || math.IsInf(c.Tau2, 0)):
		return fmt.Errorf("simulate: tau2 = %v with groups of %d classes: it must be a finite number above 0 (the variance of a class's centre around its group's)", c.Tau2, c.Group)
	case c.Group > 1 && c.Tau2 > MaxSigma2D/float64(c.D):
		return fmt.Errorf("simulate: tau2 = %v with d = %d: the squared distances would overflow a 64-bit float; use tau2 <= %.3g", c.Tau2, c.D, MaxSigma2D/float64(c.D))
	}
	return nil
}

// Streams of the PCG generator (its second seed word), one per purpose, so
// that the centres do not depend on r or the point distribution, the points of
// class j do not depend on K, and drawing a pilot does not disturb either.
const (
	streamCentres = 0x636c6173_73657321 // "classes!"
	streamPoints  = 0x706f696e_74732121 // "points!!"
	streamPilot   = 0x70696c6f_74212121 // "pilot!!!"
	streamGroups  = 0x67726f75_70732121 // "groups!!"
)

// World is a generated problem: the class centres and the points.
type World struct {
	// Config is the configuration the world was generated from.
	Config Config
	// Centres holds the K centres row-major, K x d.
	Centres []float64
	// Points holds the K·r points row-major, (K·r) x d; point i belongs to
	// class i / r (points are grouped by class, r per class, in class order).
	Points []float64
}

// Generate draws a World from cfg. The centres come first from their own
// stream, class by class and coordinate by coordinate; the points from another
// stream, class by class, point by point, coordinate by coordinate. So a world
// with fewer classes (same seed, d, r and distributions) is a prefix of one
// with more. Grouped worlds (Config.Group > 1) draw the group centres from a
// third stream and keep that property.
func Generate(cfg Config) (*World, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	k, r, d := cfg.K, cfg.R, cfg.D
	w := &World{Config: cfg, Centres: make([]float64, k*d), Points: make([]float64, k*r*d)}

	rc := rand.New(rand.NewPCG(cfg.Seed, streamCentres))
	for i := range w.Centres {
		w.Centres[i] = cfg.Classes.draw(rc)
	}
	if cfg.Group > 1 {
		// The group centres come from their own stream, group by group; the
		// draws above become each class's offset within its group.
		rg := rand.New(rand.NewPCG(cfg.Seed, streamGroups))
		tau := math.Sqrt(cfg.Tau2)
		c := make([]float64, d)
		for j := 0; j < k; j++ {
			if j%cfg.Group == 0 {
				for t := range c {
					c[t] = cfg.Classes.draw(rg)
				}
			}
			y := w.Centres[j*d : (j+1)*d]
			for t := range y {
				y[t] = c[t] + float64(tau*y[t])
			}
		}
	}

	rp := rand.New(rand.NewPCG(cfg.Seed, streamPoints))
	sd := math.Sqrt(cfg.Sigma2)
	half := math.Sqrt(float64(3 * cfg.Sigma2))
	for j := 0; j < k; j++ {
		y := w.Centres[j*d : (j+1)*d]
		for p := 0; p < r; p++ {
			x := w.Points[(j*r+p)*d : (j*r+p+1)*d]
			for t := range x {
				if cfg.Points == Uniform {
					x[t] = uniform(rp, y[t]-half, y[t]+half)
				} else {
					x[t] = y[t] + float64(sd*rp.NormFloat64())
				}
			}
		}
	}
	return w, nil
}

// draw returns one coordinate of a class centre: N(0, 1) or U(-√3, √3).
func (d Dist) draw(r *rand.Rand) float64 {
	if d == Uniform {
		return uniform(r, -math.Sqrt(3), math.Sqrt(3))
	}
	return r.NormFloat64()
}

// uniform returns a + (b - a) u with u uniform on [0, 1).
func uniform(r *rand.Rand, a, b float64) float64 {
	return a + float64((b-a)*r.Float64())
}

// N returns the number of points, K·r.
func (w *World) N() int { return w.Config.K * w.Config.R }

// Label returns the class of point i: i / r.
func (w *World) Label(i int) int { return i / w.Config.R }

// Score returns the Euclidean distance from point i to the centre of class j,
// sqrt(sum_t (x_t - y_t)^2), summed in coordinate order.
func (w *World) Score(i, j int) float64 {
	d := w.Config.D
	return distance(w.Points[i*d:(i+1)*d], w.Centres[j*d:(j+1)*d])
}

func distance(x, y []float64) float64 { return math.Sqrt(squared(x, y)) }

// squared returns sum_t (x_t - y_t)^2, each square rounded before the sum.
func squared(x, y []float64) float64 {
	y = y[:len(x)]
	s := 0.0
	for t, v := range x {
		e := v - y[t]
		s += float64(e * e)
	}
	return s
}

// ClassName returns the name of class j in CSV output: "c" followed by j,
// zero-padded to at least 4 digits and to the width of K-1 (c0000, c0001, ...).
func (w *World) ClassName(j int) string {
	width := max(4, len(strconv.Itoa(w.Config.K-1)))
	return fmt.Sprintf("c%0*d", width, j)
}

// ErrClasses is wrapped by the errors about a list of class indices.
var ErrClasses = errors.New("invalid class list")

// SampleClasses draws k1 distinct classes out of the K uniformly at random,
// from a PCG stream seeded by seed (independent of the world's own streams),
// and returns them in ascending order.
func (w *World) SampleClasses(k1 int, seed uint64) ([]int, error) {
	if k1 < 2 || k1 > w.Config.K {
		return nil, fmt.Errorf("%w: k1 = %d: it must be between 2 and K = %d", ErrClasses, k1, w.Config.K)
	}
	return draw.New(seed, streamPilot).Classes(w.Config.K, k1), nil
}

// Matrix returns the score matrix of the given classes: one column per class
// in the order given, one row per point of those classes (in class order,
// then point order), with scores Score(i, j). Memory is O(k1·r·k1).
func (w *World) Matrix(classes []int) (*scores.Matrix, error) {
	if err := w.checkClasses(classes); err != nil {
		return nil, err
	}
	k1, r := len(classes), w.Config.R
	m := &scores.Matrix{
		Classes: make([]string, k1),
		Labels:  make([]int, 0, k1*r),
		Scores:  make([]float64, 0, k1*r*k1),
	}
	for a, j := range classes {
		m.Classes[a] = w.ClassName(j)
	}
	for a, y := range classes {
		for p := 0; p < r; p++ {
			i := y*r + p
			m.Labels = append(m.Labels, a)
			for _, j := range classes {
				m.Scores = append(m.Scores, w.Score(i, j))
			}
		}
	}
	return m, nil
}

// Pilot returns the score matrix of k1 classes drawn by SampleClasses(k1, seed).
func (w *World) Pilot(k1 int, seed uint64) (*scores.Matrix, error) {
	cls, err := w.SampleClasses(k1, seed)
	if err != nil {
		return nil, err
	}
	return w.Matrix(cls)
}

// AllClasses returns 0, 1, ..., K-1.
func (w *World) AllClasses() []int {
	cls := make([]int, w.Config.K)
	for j := range cls {
		cls[j] = j
	}
	return cls
}

// WriteCSV streams the score-matrix CSV (docs/formats.md §1) of the given classes
// to dst (through scores.Writer), row by row, without building the matrix: memory is O(len(classes)).
// The rows and columns are those of Matrix(classes); numbers are written in
// the shortest form that parses back to the same float64.
func (w *World) WriteCSV(dst io.Writer, classes []int) error {
	if err := w.checkClasses(classes); err != nil {
		return err
	}
	out := scores.NewWriter(dst)
	names := make([]string, len(classes))
	for a, j := range classes {
		names[a] = w.ClassName(j)
	}
	if err := out.WriteHeader(names); err != nil {
		return err
	}
	row := make([]float64, len(classes))
	for a, y := range classes {
		for p := 0; p < w.Config.R; p++ {
			i := y*w.Config.R + p
			for b, j := range classes {
				row[b] = w.Score(i, j)
			}
			if err := out.WriteRow(a, row); err != nil {
				return err
			}
		}
	}
	return out.Flush()
}

func (w *World) checkClasses(classes []int) error {
	if len(classes) < 2 {
		return fmt.Errorf("%w: %d classes given, at least 2 are needed", ErrClasses, len(classes))
	}
	seen := make([]bool, w.Config.K)
	for _, j := range classes {
		if j < 0 || j >= w.Config.K {
			return fmt.Errorf("%w: class %d is outside 0..%d", ErrClasses, j, w.Config.K-1)
		}
		if seen[j] {
			return fmt.Errorf("%w: class %d is repeated", ErrClasses, j)
		}
		seen[j] = true
	}
	return nil
}

// Truth returns the exact observed accuracy curve over all K classes,
// Abar_k for k = 0..K (accuracy.ObservedByR), where R_x counts the incorrect
// classes whose distance to x is strictly larger than the correct one's (ties
// lose) and every point weighs 1/(K r). It streams over the points, computing
// each point's K distances into one buffer, so memory beyond the world is
// O(K), never the (K·r) x K matrix; time is O(K²·r·d).
//
// The class data, the ranks R_x and the curve are bit-identical on every
// platform: accuracy.ObservedByR computes with detmath's Exp and Log.
func (w *World) Truth() accuracy.Curve {
	c, _ := w.TruthContext(context.Background(), nil)
	return c
}

// truthBlock is how many points TruthContext handles between checks of the
// context and calls of progress (about 2.5 ms natively at K = 2000, d = 5).
const truthBlock = 256

// TruthContext is Truth, stopping with ctx.Err() once ctx is done and calling
// progress (may be nil) with the points done so far out of K·r every few
// hundred points, from the calling goroutine.
func (w *World) TruthContext(ctx context.Context, progress func(done, total int)) (accuracy.Curve, error) {
	byR, err := w.weightByR(ctx, progress)
	if err != nil {
		return nil, err
	}
	return accuracy.ObservedByR(byR, w.Config.K), nil
}

// weightByR returns, for R = 0..K-1, the total weight of the points with R_x = R.
// It compares squared distances and takes a square root only when two are
// within 1e-14 (relative) of each other: sqrt is monotone and correctly
// rounded, so s_j ≤ s_y gives sqrt(s_j) ≤ sqrt(s_y), and s_j > s_y (1 + 1e-14)
// puts sqrt(s_j) many ulps above sqrt(s_y); R_x is therefore exactly the count
// on the distances Score returns (the ones written to the CSV).
func (w *World) weightByR(ctx context.Context, progress func(done, total int)) ([]float64, error) {
	k := w.Config.K
	byR := make([]float64, k)
	sq := make([]float64, k)
	wx := 1 / float64(k*w.Config.R)
	for i := 0; i < w.N(); i++ {
		if i%truthBlock == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if progress != nil {
				progress(i, w.N())
			}
		}
		y := w.Label(i)
		w.squaredDistances(i, sq)
		sy := sq[y]
		hi := sy * (1 + 1e-14)
		c := math.Sqrt(sy)
		rx := 0
		for _, s := range sq { // the correct class has s == sy: never counted
			if s > hi || (s > sy && math.Sqrt(s) > c) {
				rx++
			}
		}
		byR[rx] += wx
	}
	if progress != nil {
		progress(w.N(), w.N())
	}
	return byR, nil
}

// squaredDistances writes the squared distances from point i to every centre
// into sq, summed in coordinate order as in Score.
func (w *World) squaredDistances(i int, sq []float64) {
	d := w.Config.D
	x := w.Points[i*d : (i+1)*d]
	c := w.Centres[:len(sq)*d]
	for j := range sq {
		sq[j] = squared(x, c[:d])
		c = c[d:]
	}
}

// Limits on a simulation the page runs in the browser, where a pilot's
// scores and a world's true curve must fit a tab's memory and minutes.
const (
	// MaxPilotScores bounds a pilot's r·k1² scores: 240 MB of float64,
	// about what the largest score file the page reads holds.
	MaxPilotScores = 30_000_000
	// MaxTruthWork bounds K²·r·d, the work of a world's exact curve (every
	// one of its K·r points scored against its K classes in d dimensions):
	// at 5e9 it takes seconds in a worker, at this bound minutes.
	MaxTruthWork = 2e11
)

// CheckBrowserSize refuses a simulation of a pilot of k1 of the K classes
// of cfg too large for a browser tab (MaxPilotScores, MaxTruthWork), saying
// what to lower; the command line (cleanex simulate) has only the limits
// of Validate.
func CheckBrowserSize(cfg Config, k1 int) error {
	scores := float64(cfg.R) * float64(k1) * float64(k1)
	if scores > MaxPilotScores {
		return fmt.Errorf("simulate: a pilot of k1 = %s classes with r = %d points each holds r·k1² = %s scores (%s), more than the %s a browser tab holds: lower k1 or r, or run cleanex simulate on the command line",
			limits.Thousands(k1), cfg.R, limits.Thousands(int(scores)), limits.HumanBytes(scores*8), limits.Thousands(MaxPilotScores))
	}
	work := float64(cfg.K) * float64(cfg.K) * float64(cfg.R) * float64(cfg.D)
	if work > MaxTruthWork {
		return fmt.Errorf("simulate: the true curve of a world of K = %s classes with r = %d and d = %d takes K²·r·d = %s steps, more than the %s a browser tab does in minutes: lower K, r or d, or run cleanex simulate --truth on the command line",
			limits.Thousands(cfg.K), cfg.R, cfg.D, limits.Thousands(int(work)), limits.Thousands(int(MaxTruthWork)))
	}
	return nil
}
