//go:build !((amd64 && !amd64.v3) || wasm)

package embed

// unfusedArith reports that the compiler may fuse a product and a sum into
// one rounding on this platform (arm64, ppc64, s390x, amd64 v3, ...), so
// Matrix's distances may differ from internal/simulate's in the last bits.
const unfusedArith = false
