package inputs

import (
	"errors"
	"fmt"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/scores"
)

// ErrSummaryDirection is the error of a summary whose correct classes score
// below most of their competitors: summaries are oriented higher-is-better,
// so its scores were most likely distances that the recipe did not negate.
var ErrSummaryDirection = errors.New("in this summary the correct class scores below more incorrect classes than above them: a summary must hold scores where higher is better; for distances, negate the score in the recipe (docs/summary.md) and make the summary again")

// ErrEmbeddings is the error of Data.Sample on embeddings: they are scored
// against their references first (embed.Summarise, or embed.Matrix for a
// small problem), which the command line does (cleanex predict).
var ErrEmbeddings = errors.New("this file holds embeddings, not scores: score the test embeddings against their references first (embed.Summarise; the command line does it: cleanex predict --k2 N FILE)")

// Sample returns the pilot as the estimators read it, and the direction its
// scores were taken in. A score matrix is oriented by dir (Auto resolved as
// scores.Matrix.Resolve does); a summary is oriented higher-is-better
// already, so dir must be Auto or Higher; with Auto, a summary in which
// the correct scores lose more pairs than they win (sum of below < sum of
// above) is refused with ErrSummaryDirection (Higher accepts it: a
// classifier near chance may lose more pairs than it wins). A pilot whose
// points all give every class the same score is refused
// (accuracy.ErrConstantScores). Embeddings are refused with ErrEmbeddings:
// they must be scored first.
func (d *Data) Sample(dir scores.Direction) (*accuracy.Sample, scores.Direction, error) {
	return d.sample(dir, accuracy.NewSample)
}

// TakeSample is Sample for a caller that reads d's scores no more: a score
// matrix's scores are oriented in place and handed to the Sample
// (accuracy.NewSampleInPlace), so d.Matrix.Scores is nil afterwards (its
// classes and labels stay), and a large pilot is not held twice.
func (d *Data) TakeSample(dir scores.Direction) (*accuracy.Sample, scores.Direction, error) {
	return d.sample(dir, accuracy.NewSampleInPlace)
}

// sample is Sample with the score matrix's Sample made by newSample.
func (d *Data) sample(dir scores.Direction, newSample func(*scores.Matrix, scores.Direction) (*accuracy.Sample, scores.Direction, error)) (*accuracy.Sample, scores.Direction, error) {
	if d.Embeddings != nil {
		return nil, dir, ErrEmbeddings
	}
	if d.Matrix != nil {
		s, used, err := newSample(d.Matrix, dir)
		if err == nil {
			err = s.CheckVaries()
		}
		if err != nil {
			return nil, used, err
		}
		return s, used, nil
	}
	if d.Summary == nil {
		return nil, dir, errors.New("no pilot was read")
	}
	if dir == scores.Lower {
		return nil, dir, fmt.Errorf("a summary holds scores oriented higher-is-better (docs/summary.md), so the direction %q does not apply to it: use auto or higher", dir)
	}
	s := d.Summary.Sample
	below, above := 0, 0
	for i, r := range s.R {
		below += r
		above += s.K - 1 - r - s.Ties(i)
	}
	if dir == scores.Auto && above > below {
		return nil, dir, ErrSummaryDirection
	}
	if err := s.CheckVaries(); err != nil {
		return nil, dir, err
	}
	return s, scores.Higher, nil
}
