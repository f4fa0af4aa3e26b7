//go:build (amd64 && !amd64.v3) || wasm

package embed

// unfusedArith reports that the compiler rounds every product before it is
// added (no fused multiply-add) on this platform, so Matrix's distances
// have the same bits as internal/simulate's, which round each square
// explicitly.
const unfusedArith = true
