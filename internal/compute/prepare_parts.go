package compute

import (
	"context"
	"fmt"
	"io"

	"github.com/cleanex/cleanex/internal/embed"
	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/protocol"
	"github.com/cleanex/cleanex/internal/summary"
)

// PreparePart reads embeddings from r as Prepare does and summarises only
// share part of parts (0 <= part < parts): test points
// embed.Split(N, part, parts), with their KDE C_x, as embed.SummariseRange
// does (its Progress counting those points). It returns the Part message
// of data set id: the range in binary form (summary.AppendPoints) and what
// the Summary says of directions and scoring. The parts of every share,
// joined (summary.AssemblePlan), are the binary form of the Sample Prepare
// makes, bit for bit. A file that is not embeddings is refused.
func PreparePart(ctx context.Context, r io.Reader, o PrepareOptions, id uint64, part, parts int) (protocol.Part, error) {
	pr, err := newPreparer(o)
	if err != nil {
		return protocol.Part{}, err
	}
	in, err := pr.read(r)
	if err != nil {
		return protocol.Part{}, err
	}
	if in.Embeddings == nil {
		return protocol.Part{}, fmt.Errorf("prepare: only embeddings are prepared in parts")
	}
	return pr.part(ctx, in, id, part, parts)
}

// part is PreparePart of the embeddings read.
func (pr *preparer) part(ctx context.Context, in *inputs.Data, id uint64, part, parts int) (protocol.Part, error) {
	if parts < 1 || part < 0 || part >= parts {
		return protocol.Part{}, fmt.Errorf("prepare: part %d of %d", part, parts)
	}
	p, used, err := embeddingProblem(in, pr.d, pr.o.Metric, pr.o.Reference)
	if err != nil {
		return protocol.Part{}, err
	}
	n, k := p.Test.N(), len(p.Classes)
	from, to := embed.Split(n, part, parts)
	rg, err := embed.SummariseRange(ctx, p, from, to, embed.Options{KDE: pr.est, Quantiles: pr.q, Progress: pr.points})
	if err != nil {
		return protocol.Part{}, err
	}
	pr.points(to-from, to-from)
	b, err := summary.AppendPoints(nil, k, n, summary.KnotRanks(k, pr.q), pr.est.Key(), from, rg.Points, rg.C)
	if err != nil {
		return protocol.Part{}, err
	}
	return protocol.Part{Dataset: id, Part: part, Parts: parts, Direction: used.String(), Detected: used.String(),
		Embedding: embeddingOf(in, p), Binary: b}, nil
}
