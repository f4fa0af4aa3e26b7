package cleanex

import "math"

// The dense-layer products of the network, written in plain Go with a fixed
// summation order so that a fit gives the same bits natively and in
// WebAssembly (gonum's Sgemm runs assembly on amd64, which sums in another
// order), and shaped for Go's wasm backend: register-blocked micro-kernels of
// 4 x 4 outputs held in local variables, operands streamed from contiguous
// rows, bounds checks hoisted by re-slicing, no allocation. No maintained
// pure-Go library offers deterministic float32 kernels, so they are written
// here. Go never fuses multiply-adds on amd64 (GOAMD64=v1) or wasm, so the same
// code rounds the same everywhere.

// abt sets c = epilogue(bias + x y^T) for x (rows x kd), y (cols x kd) and c
// (rows x cols), all row-major: element (i, j) is
//
//	c[i][j] = bias[j] + x[i][0] y[j][0] + x[i][1] y[j][1] + ... (summed in that order),
//
// with bias = 0 when nil; then, when relu is set, max(c, 0), and when mask is
// not nil, c[i][j] = 0 wherever mask[i][j] <= 0 (the ReLU derivative read
// from the layer's activations). Every output is a dot product of two
// contiguous rows.
func abt[T float](c, x, y []T, rows, cols, kd int, bias []T, relu bool, mask []T) {
	c = c[:rows*cols]
	i := 0
	for ; i+4 <= rows; i += 4 {
		x0 := x[i*kd : (i+1)*kd : (i+1)*kd]
		x1 := x[(i+1)*kd : (i+2)*kd : (i+2)*kd]
		x2 := x[(i+2)*kd : (i+3)*kd : (i+3)*kd]
		x3 := x[(i+3)*kd : (i+4)*kd : (i+4)*kd]
		j := 0
		for ; !narrowTiles && j+4 <= cols; j += 4 {
			y0 := y[j*kd : (j+1)*kd : (j+1)*kd]
			y1 := y[(j+1)*kd : (j+2)*kd : (j+2)*kd]
			y2 := y[(j+2)*kd : (j+3)*kd : (j+3)*kd]
			y3 := y[(j+3)*kd : (j+4)*kd : (j+4)*kd]
			var b0, b1, b2, b3 T
			if bias != nil {
				bb := bias[j : j+4 : j+4]
				b0, b1, b2, b3 = bb[0], bb[1], bb[2], bb[3]
			}
			s00, s01, s02, s03 := b0, b1, b2, b3
			s10, s11, s12, s13 := b0, b1, b2, b3
			s20, s21, s22, s23 := b0, b1, b2, b3
			s30, s31, s32, s33 := b0, b1, b2, b3
			x1, x2, x3 = x1[:len(x0)], x2[:len(x0)], x3[:len(x0)]
			y0, y1, y2, y3 = y0[:len(x0)], y1[:len(x0)], y2[:len(x0)], y3[:len(x0)]
			for k, a0 := range x0 {
				w0, w1, w2, w3 := y0[k], y1[k], y2[k], y3[k]
				s00 += a0 * w0
				s01 += a0 * w1
				s02 += a0 * w2
				s03 += a0 * w3
				a1 := x1[k]
				s10 += a1 * w0
				s11 += a1 * w1
				s12 += a1 * w2
				s13 += a1 * w3
				a2 := x2[k]
				s20 += a2 * w0
				s21 += a2 * w1
				s22 += a2 * w2
				s23 += a2 * w3
				a3 := x3[k]
				s30 += a3 * w0
				s31 += a3 * w1
				s32 += a3 * w2
				s33 += a3 * w3
			}
			if relu {
				s00, s01, s02, s03 = relu0(s00), relu0(s01), relu0(s02), relu0(s03)
				s10, s11, s12, s13 = relu0(s10), relu0(s11), relu0(s12), relu0(s13)
				s20, s21, s22, s23 = relu0(s20), relu0(s21), relu0(s22), relu0(s23)
				s30, s31, s32, s33 = relu0(s30), relu0(s31), relu0(s32), relu0(s33)
			}
			c0 := c[i*cols+j : i*cols+j+4 : i*cols+j+4]
			c0[0], c0[1], c0[2], c0[3] = s00, s01, s02, s03
			c1 := c[(i+1)*cols+j : (i+1)*cols+j+4 : (i+1)*cols+j+4]
			c1[0], c1[1], c1[2], c1[3] = s10, s11, s12, s13
			c2 := c[(i+2)*cols+j : (i+2)*cols+j+4 : (i+2)*cols+j+4]
			c2[0], c2[1], c2[2], c2[3] = s20, s21, s22, s23
			c3 := c[(i+3)*cols+j : (i+3)*cols+j+4 : (i+3)*cols+j+4]
			c3[0], c3[1], c3[2], c3[3] = s30, s31, s32, s33
		}
		for ; narrowTiles && j+2 <= cols; j += 2 { // 4 x 2 tiles
			y0 := y[j*kd : (j+1)*kd : (j+1)*kd]
			y1 := y[(j+1)*kd : (j+2)*kd : (j+2)*kd]
			var b0, b1 T
			if bias != nil {
				bb := bias[j : j+2 : j+2]
				b0, b1 = bb[0], bb[1]
			}
			s00, s01, s10, s11, s20, s21, s30, s31 := b0, b1, b0, b1, b0, b1, b0, b1
			x1, x2, x3 = x1[:len(x0)], x2[:len(x0)], x3[:len(x0)]
			y0, y1 = y0[:len(x0)], y1[:len(x0)]
			for k, a0 := range x0 {
				w0, w1 := y0[k], y1[k]
				s00 += a0 * w0
				s01 += a0 * w1
				a1 := x1[k]
				s10 += a1 * w0
				s11 += a1 * w1
				a2 := x2[k]
				s20 += a2 * w0
				s21 += a2 * w1
				a3 := x3[k]
				s30 += a3 * w0
				s31 += a3 * w1
			}
			if relu {
				s00, s01, s10, s11 = relu0(s00), relu0(s01), relu0(s10), relu0(s11)
				s20, s21, s30, s31 = relu0(s20), relu0(s21), relu0(s30), relu0(s31)
			}
			c[i*cols+j], c[i*cols+j+1] = s00, s01
			c[(i+1)*cols+j], c[(i+1)*cols+j+1] = s10, s11
			c[(i+2)*cols+j], c[(i+2)*cols+j+1] = s20, s21
			c[(i+3)*cols+j], c[(i+3)*cols+j+1] = s30, s31
		}
		for ; j < cols; j++ { // remaining columns: 4 rows x 1 column
			y0 := y[j*kd : (j+1)*kd : (j+1)*kd]
			var b T
			if bias != nil {
				b = bias[j]
			}
			s0, s1, s2, s3 := b, b, b, b
			x1, x2, x3 = x1[:len(x0)], x2[:len(x0)], x3[:len(x0)]
			y0 = y0[:len(x0)]
			for k, a0 := range x0 {
				w := y0[k]
				s0 += a0 * w
				s1 += x1[k] * w
				s2 += x2[k] * w
				s3 += x3[k] * w
			}
			if relu {
				s0, s1, s2, s3 = relu0(s0), relu0(s1), relu0(s2), relu0(s3)
			}
			c[i*cols+j], c[(i+1)*cols+j], c[(i+2)*cols+j], c[(i+3)*cols+j] = s0, s1, s2, s3
		}
	}
	for ; i < rows; i++ { // remaining rows, one output at a time
		xi := x[i*kd : (i+1)*kd : (i+1)*kd]
		for j := range cols {
			yj := y[j*kd : (j+1)*kd : (j+1)*kd]
			yj = yj[:len(xi)]
			var s T
			if bias != nil {
				s = bias[j]
			}
			for k, a := range xi {
				s += a * yj[k]
			}
			if relu {
				s = relu0(s)
			}
			c[i*cols+j] = s
		}
	}
	if mask != nil {
		mask = mask[:len(c)]
		for i, v := range mask {
			if v <= 0 {
				c[i] = 0
			}
		}
	}
}

// atbAdd adds a^T d to g for a (rows x m), d (rows x n) and g (m x n), all
// row-major, or overwrites g with it when overwrite is set: element (p, j) is
//
//	g[p][j] (+)= a[0][p] d[0][j] + a[1][p] d[1][j] + ... (summed over rows in order),
//
// the weight gradient of a dense layer. Tiles of 4 x 4 outputs are
// accumulated in local variables while the rows stream past.
func atbAdd[T float](g, a, d []T, rows, m, n int, overwrite bool) {
	g = g[:m*n]
	if overwrite {
		clear(g)
	}
	a = a[:rows*m]
	d = d[:rows*n]
	p := 0
	for ; p+4 <= m; p += 4 {
		j := 0
		for ; !narrowTiles && j+4 <= n; j += 4 {
			g0 := g[p*n+j : p*n+j+4 : p*n+j+4]
			g1 := g[(p+1)*n+j : (p+1)*n+j+4 : (p+1)*n+j+4]
			g2 := g[(p+2)*n+j : (p+2)*n+j+4 : (p+2)*n+j+4]
			g3 := g[(p+3)*n+j : (p+3)*n+j+4 : (p+3)*n+j+4]
			s00, s01, s02, s03 := g0[0], g0[1], g0[2], g0[3]
			s10, s11, s12, s13 := g1[0], g1[1], g1[2], g1[3]
			s20, s21, s22, s23 := g2[0], g2[1], g2[2], g2[3]
			s30, s31, s32, s33 := g3[0], g3[1], g3[2], g3[3]
			for i := range rows {
				ar := a[i*m+p : i*m+p+4 : i*m+p+4]
				dr := d[i*n+j : i*n+j+4 : i*n+j+4]
				d0, d1, d2, d3 := dr[0], dr[1], dr[2], dr[3]
				a0 := ar[0]
				s00 += a0 * d0
				s01 += a0 * d1
				s02 += a0 * d2
				s03 += a0 * d3
				a1 := ar[1]
				s10 += a1 * d0
				s11 += a1 * d1
				s12 += a1 * d2
				s13 += a1 * d3
				a2 := ar[2]
				s20 += a2 * d0
				s21 += a2 * d1
				s22 += a2 * d2
				s23 += a2 * d3
				a3 := ar[3]
				s30 += a3 * d0
				s31 += a3 * d1
				s32 += a3 * d2
				s33 += a3 * d3
			}
			g0[0], g0[1], g0[2], g0[3] = s00, s01, s02, s03
			g1[0], g1[1], g1[2], g1[3] = s10, s11, s12, s13
			g2[0], g2[1], g2[2], g2[3] = s20, s21, s22, s23
			g3[0], g3[1], g3[2], g3[3] = s30, s31, s32, s33
		}
		for ; narrowTiles && j+2 <= n; j += 2 { // 4 x 2 tiles
			s00, s01 := g[p*n+j], g[p*n+j+1]
			s10, s11 := g[(p+1)*n+j], g[(p+1)*n+j+1]
			s20, s21 := g[(p+2)*n+j], g[(p+2)*n+j+1]
			s30, s31 := g[(p+3)*n+j], g[(p+3)*n+j+1]
			for i := range rows {
				ar := a[i*m+p : i*m+p+4 : i*m+p+4]
				dr := d[i*n+j : i*n+j+2 : i*n+j+2]
				d0, d1 := dr[0], dr[1]
				s00 += ar[0] * d0
				s01 += ar[0] * d1
				s10 += ar[1] * d0
				s11 += ar[1] * d1
				s20 += ar[2] * d0
				s21 += ar[2] * d1
				s30 += ar[3] * d0
				s31 += ar[3] * d1
			}
			g[p*n+j], g[p*n+j+1] = s00, s01
			g[(p+1)*n+j], g[(p+1)*n+j+1] = s10, s11
			g[(p+2)*n+j], g[(p+2)*n+j+1] = s20, s21
			g[(p+3)*n+j], g[(p+3)*n+j+1] = s30, s31
		}
		for ; j < n; j++ { // remaining columns: 4 x 1
			s0, s1, s2, s3 := g[p*n+j], g[(p+1)*n+j], g[(p+2)*n+j], g[(p+3)*n+j]
			for i := range rows {
				ar := a[i*m+p : i*m+p+4 : i*m+p+4]
				dv := d[i*n+j]
				s0 += ar[0] * dv
				s1 += ar[1] * dv
				s2 += ar[2] * dv
				s3 += ar[3] * dv
			}
			g[p*n+j], g[(p+1)*n+j], g[(p+2)*n+j], g[(p+3)*n+j] = s0, s1, s2, s3
		}
	}
	for ; p < m; p++ { // remaining rows of g, one output at a time
		for j := range n {
			s := g[p*n+j]
			for i := range rows {
				s += a[i*m+p] * d[i*n+j]
			}
			g[p*n+j] = s
		}
	}
}

// colSumsAdd adds the column sums of d (rows x n, row-major) to g, or
// overwrites g with them when overwrite is set, summing rows in order.
func colSumsAdd[T float](g, d []T, rows, n int, overwrite bool) {
	g = g[:n]
	if overwrite {
		clear(g)
	}
	for i := range rows {
		row := d[i*n : (i+1)*n : (i+1)*n]
		row = row[:len(g)]
		for j, v := range row {
			g[j] += v
		}
	}
}

// relu0 returns max(v, 0) as (v + |v|) / 2, which is exact (v + |v| is 2v
// or 0) and branch-free: Go's max of floats is a runtime call in wasm, and a
// compare-and-branch mispredicts on the ~50% negative pre-activations.
// (-0 becomes +0.)
func relu0[T float](v T) T {
	return (v + T(math.Abs(float64(v)))) * 0.5
}

// transpose sets t (n x m) to the transpose of w (m x n), both row-major.
func transpose[T float](t, w []T, m, n int) {
	for p := range m {
		for j := range n {
			t[j*m+p] = w[p*n+j]
		}
	}
}
