package compute_test

import (
	"fmt"

	"github.com/cleanex/cleanex/internal/compute"
	"github.com/cleanex/cleanex/internal/protocol"
)

// A worker's Server reads a pilot and fits a method on it, answering with
// messages: the pilot's summary, progress, and the fitted curve.
func ExampleServer() {
	replies := make(chan protocol.Message, 100)
	srv := compute.NewServer(func(m protocol.Message) { replies <- m }, compute.Options{})
	srv.Handle(protocol.Load{Dataset: 1, Direction: "auto", WantSummary: true, CSV: []byte(`label,a,b,c
a,0.9,0.1,0.2
a,0.4,0.5,0.1
b,0.2,0.8,0.3
c,0.1,0.2,0.7
c,0.3,0.6,0.5
`)})
	srv.Handle(protocol.Run{Dataset: 1, Run: 1, Method: "plugin", K2: 6})
	for m := range replies {
		switch m := m.(type) {
		case protocol.Summary:
			fmt.Printf("%d points, %d classes, %s is better, top-1 %.3f\n", m.N, m.K, m.Direction, m.Top1)
		case protocol.Error:
			fmt.Println("error:", m.Message)
			return
		case protocol.Result:
			fmt.Printf("%s at k = 2, 3, 6: %.3f %.3f %.3f\n", m.Method, m.Curve[2], m.Curve[3], m.Curve[6])
			return
		}
	}
	// Output:
	// 5 points, 3 classes, higher is better, top-1 0.667
	// plugin at k = 2, 3, 6: 0.833 0.750 0.677
}
