// cleanexPath(ctx, bytes) replays a batch of path points on a 2D context:
// bytes holds little-endian float64 triples (op, x, y), op 0 = moveTo and
// 1 = lineTo. The Go canvas (internal/jsdom) sends a whole curve this way
// in one call instead of one call per point.
self.cleanexPath = function (ctx, bytes) {
  "use strict";
  const a = new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
  for (let i = 0; i + 2 < a.length; i += 3) {
    if (a[i] === 0) ctx.moveTo(a[i + 1], a[i + 2]);
    else ctx.lineTo(a[i + 1], a[i + 2]);
  }
};
