//go:build !amd64

package cleanex

// narrowTiles selects 4 x 2 output tiles in the kernels; off outside amd64:
// 4 x 4 tiles measured fastest in wasm (V8 keeps the accumulators in
// registers). Every output's summation order is the same whatever the tile.
const narrowTiles = false
