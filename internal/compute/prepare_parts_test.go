package compute

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/cleanex/cleanex/internal/protocol"
	"github.com/cleanex/cleanex/internal/summary"
)

// prepared runs Server.Prepare of m on file and returns the messages it
// posted but its progress.
func prepared(t *testing.T, m protocol.Prepare, file []byte) []protocol.Message {
	t.Helper()
	c := newCollector()
	NewServer(c.post, Options{}).Prepare(m, bytes.NewReader(file), int64(len(file)))
	var out []protocol.Message
	for _, msg := range c.msgs {
		if _, ok := msg.(protocol.Progress); !ok {
			out = append(out, msg)
		}
	}
	return out
}

// Embeddings prepared in parts by several workers (Prepare with Parts),
// their Part messages joined as the page joins them (the encoded message
// from At, summary.AssemblePlan, LoadBinaryPrefix), load as the one
// LoadBinary a single preparing worker posts: the same bytes, the same
// summary, whatever the number of parts (more parts than test points
// too). A score matrix sent in parts is prepared whole by part 0's worker;
// the others post nothing.
func TestPrepareParts(t *testing.T) {
	npz := readTestdata(t, "tiny_embeddings.npz")
	for _, metric := range []string{"", "cosine"} {
		base := protocol.Prepare{Dataset: 3, Direction: "auto", Metric: metric}
		one := prepared(t, base, npz)
		if len(one) != 2 {
			t.Fatalf("one worker posted %d messages, want a LoadBinary and a Summary", len(one))
		}
		whole := one[0].(protocol.LoadBinary)
		wantSum := one[1].(protocol.Summary)
		for _, parts := range []int{2, 3, 7, 100} {
			var bins [][]byte
			var head protocol.Part
			for i := range parts {
				m := base
				m.Part, m.Parts = i, parts
				msgs := prepared(t, m, npz)
				if len(msgs) != 1 {
					t.Fatalf("%d parts: part %d posted %d messages, want one Part", parts, i, len(msgs))
				}
				enc, err := protocol.Encode(msgs[0])
				if err != nil {
					t.Fatal(err)
				}
				h, err := protocol.DecodeKeptHead(enc[:min(len(enc), 256)])
				if err != nil {
					t.Fatal(err)
				}
				p := h.(protocol.Part)
				if p.Dataset != 3 || p.Part != i || p.Parts != parts {
					t.Fatalf("part %d of %d: %+v", i, parts, p)
				}
				head = p
				bins = append(bins, enc[p.At:])
			}
			joined, err := summary.Assemble(bins)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(joined, whole.Binary) {
				t.Fatalf("metric %q, %d parts: the joined parts differ from one worker's binary form", metric, parts)
			}
			lb := protocol.LoadBinary{Dataset: 3, Direction: head.Direction, Detected: head.Detected, Embedding: head.Embedding}
			msg, err := protocol.Decode(append(protocol.LoadBinaryPrefix(lb, len(joined)), joined...))
			if err != nil {
				t.Fatal(err)
			}
			w := whole
			if !reflect.DeepEqual(msg, w) {
				t.Fatalf("metric %q, %d parts: the LoadBinary %+v differs from one worker's", metric, parts, msg.(protocol.LoadBinary).Embedding)
			}
			_, sum, err := LoadBinary(msg.(protocol.LoadBinary))
			if err != nil {
				t.Fatal(err)
			}
			sameSummary(t, sum, wantSum)
		}
	}
	csv := simulatedCSV(t, 8, 3, 1)
	if msgs := prepared(t, protocol.Prepare{Dataset: 4, Direction: "auto", Part: 1, Parts: 2}, csv); len(msgs) != 0 {
		t.Errorf("part 1 of a score matrix posted %d messages", len(msgs))
	}
	msgs := prepared(t, protocol.Prepare{Dataset: 4, Direction: "auto", Part: 0, Parts: 2}, csv)
	if len(msgs) < 2 || msgs[0].Kind() != protocol.KindLoadBinary || msgs[1].Kind() != protocol.KindSummary {
		t.Errorf("part 0 of a score matrix posted %d messages, want a LoadBinary and a Summary first", len(msgs))
	}
	if _, err := PreparePart(t.Context(), bytes.NewReader(csv), PrepareOptions{Direction: "auto"}, 4, 0, 2); err == nil {
		t.Error("PreparePart accepted a score matrix")
	}
}
