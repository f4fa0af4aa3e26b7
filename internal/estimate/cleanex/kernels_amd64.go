package cleanex

// narrowTiles selects 4 x 2 output tiles in the kernels: amd64 has 16 vector
// registers, and 4 x 4 accumulators plus operands spill (4 x 2 measured
// faster natively). Every output's summation order is the same whatever the
// tile, so the results are bit-identical to the 4 x 4 tiles used elsewhere.
const narrowTiles = true
