"""Render characters of one script choice in the installed fonts, as 32x32 grey
bitmaps: training renderings from some font families, test renderings from other
font families (held out whole), for a trained classifier.

  --script alphabets  (the default) non-CJK characters: Latin, IPA, Greek, Cyrillic,
                      Armenian, Georgian, letterlike symbols, arrows, mathematical
                      operators
  --script hangul     Hangul syllables U+AC00-U+D7A3 only: the candidates are the
                      syllables that the most font files map (fontconfig's charset),
                      ties kept; font families whose renderings of probe syllables
                      are the same outlines (mean |difference| under 2 of 255) count
                      as one family, named after the first in sorted order, so no
                      test family has a twin among the training families

usage: python3 render.py [--script alphabets|hangul] OUT.npz [M]

Needs Pillow and NumPy; reads the fonts through fc-list. Deterministic for a
given set of installed fonts.
"""
import argparse, collections, hashlib, subprocess, sys, unicodedata
import numpy as np
from PIL import Image, ImageDraw, ImageFont

ap = argparse.ArgumentParser(description='Render glyphs of one script choice for a trained classifier.')
ap.add_argument('--script', choices=('alphabets', 'hangul'), default='alphabets')
ap.add_argument('out', metavar='OUT.npz')
ap.add_argument('m', metavar='M', nargs='?', type=int, default=1500)
args = ap.parse_args()
OUT, M, SCRIPT = args.out, args.m, args.script
BLOCKS = [(0x21, 0x7e), (0xa1, 0x24f), (0x250, 0x2af), (0x370, 0x3ff), (0x400, 0x52f),
          (0x530, 0x58f), (0x10a0, 0x10ff), (0x1e00, 0x1fff), (0x2100, 0x214f),
          (0x2190, 0x21ff), (0x2200, 0x22ff), (0x2c60, 0x2c7f), (0xa640, 0xa69f), (0xa720, 0xa7ff)]
HANGUL = (0xac00, 0xd7a3)
CANVAS, SIZE, BASE = 64, 40, 46


def h(s):
    return int(hashlib.sha1(s.encode()).hexdigest()[:8], 16)


def parse(cs):
    s = set()
    for part in cs.split():
        a, _, b = part.partition('-')
        s.update(range(int(a, 16), int(b or a, 16) + 1))
    return s


_font_cache = {}


def font(f, size):
    k = (f, size)
    if k not in _font_cache:
        _font_cache[k] = ImageFont.truetype(f, size)
    return _font_cache[k]


def render(f, ch, size=SIZE, dx=0, dy=0):
    ft = font(f, size)
    img = Image.new('L', (CANVAS * 2, CANVAS))
    d = ImageDraw.Draw(img)
    d.text((CANVAS // 2, BASE + dy), ch, fill=255, font=ft, anchor='ls')
    a = np.asarray(img, dtype=np.float32)
    cols = np.nonzero(a.sum(0) > 0)[0]
    if len(cols) == 0:
        return None
    mid = (cols[0] + cols[-1]) // 2
    lo = mid - CANVAS // 2 + dx
    a = a[:, max(lo, 0):max(lo, 0) + CANVAS]
    if a.shape[1] < CANVAS:
        a = np.pad(a, ((0, 0), (0, CANVAS - a.shape[1])))
    return a.reshape(32, 2, 32, 2).mean((1, 3)).astype(np.uint8)


out = subprocess.run(['fc-list', '--format=%{file}\t%{family[0]}\t%{fontformat}\t%{charset}\n'],
                     capture_output=True, text=True, check=True).stdout
fonts = []
for line in sorted(out.splitlines()):
    f, fam, fmt, cs = line.split('\t')
    if fmt in ('TrueType', 'CFF') and f.endswith(('.ttf', '.otf')):
        fonts.append((f, fam, parse(cs)))

if SCRIPT == 'hangul':
    # Families drawn by the same outlines (NanumSquare and NanumSquare_ac, a family and
    # its YetHangul edition) count as one, named after the first in sorted order.
    firstfile = {}
    for f, fam, s in fonts:
        if any(HANGUL[0] <= c <= HANGUL[1] for c in s):
            firstfile.setdefault(fam, (f, s))
    common = sorted(set.intersection(*(s for _, s in firstfile.values())) & set(range(HANGUL[0], HANGUL[1] + 1)))
    probe = common[::max(1, len(common) // 40)][:40]
    blank = np.zeros((32, 32), dtype=np.uint8)
    look = {fam: np.array([r if r is not None else blank for r in (render(f, chr(c)) for c in probe)], dtype=np.float32)
            for fam, (f, _) in sorted(firstfile.items())}
    group = {fam: fam for fam in look}
    fams = sorted(look)
    for i, a in enumerate(fams):
        for b in fams[i + 1:]:
            if group[b] == b and np.abs(look[a] - look[b]).mean() < 2:
                group[b] = group[a]
    for fam in fams:
        if group[fam] != fam:
            print(f'{fam}: same outlines as {group[fam]}, counted as {group[fam]}', file=sys.stderr)
    fonts = [(f, group.get(fam, fam), s) for f, fam, s in fonts]
# A font family is a test family when its name hashes into the lower 30%.
test_family = {fam: h(fam) % 10 < 3 for _, fam, _ in fonts}

if SCRIPT == 'hangul':
    # The syllables the most font files map, ties at the M-th kept.
    cover = collections.Counter(c for _, _, s in fonts for c in s if HANGUL[0] <= c <= HANGUL[1])
    counts = sorted(cover.values(), reverse=True)
    need = counts[min(M, len(counts)) - 1]
    cands = [c for c in range(HANGUL[0], HANGUL[1] + 1) if cover[c] >= need]
    hfams = sorted({fam for _, fam, s in fonts if any(HANGUL[0] <= c <= HANGUL[1] for c in s)})
    print(f'{len(cands)} syllables mapped by at least {need} font files; training families: '
          + ', '.join(f for f in hfams if not test_family[f]) + '; test families: '
          + ', '.join(f for f in hfams if test_family[f]), file=sys.stderr)
else:
    cands = [c for a, b in BLOCKS for c in range(a, b + 1)
             if unicodedata.category(chr(c))[0] in 'LNSP' and unicodedata.normalize('NFKC', chr(c)) == chr(c)]

notdef = {}


def ok(f, c):
    # A glyph that renders as the font's .notdef box (as an unmapped code point) is not kept.
    r = render(f, chr(c))
    if r is None or r.sum() < 40:
        return None
    if f not in notdef:
        notdef[f] = render(f, chr(0x10fffd))
    nd = notdef[f]
    if nd is not None and np.array_equal(nd, r):
        return None
    return r


rng = np.random.default_rng(1)
classes, seen = [], set()
train_x, train_y, test_x, test_y, test_font = [], [], [], [], []
for c in cands:
    have = [(f, fam) for f, fam, s in fonts if c in s]
    byfam = collections.defaultdict(list)
    for f, fam in have:
        byfam[fam].append(f)
    trf = [fs[0] for fam, fs in sorted(byfam.items(), key=lambda kv: h(kv[0] + chr(c))) if not test_family[fam]]
    tef = [fs[0] for fam, fs in sorted(byfam.items(), key=lambda kv: h(kv[0] + chr(c))) if test_family[fam]]
    tr = [r for r in (ok(f, c) for f in trf[:14]) if r is not None][:10]
    te = [(f, r) for f, r in ((f, ok(f, c)) for f in tef[:10]) if r is not None][:5]
    if len(tr) < 5 or len(te) < 3:
        continue
    # Homoglyphs (Latin A, Greek Alpha, Cyrillic A drawn by one outline): keep the first.
    key = hashlib.sha1(tr[0].tobytes()).hexdigest()
    if key in seen:
        continue
    seen.add(key)
    y = len(classes)
    classes.append(c)
    for f in trf[:14]:
        if ok(f, c) is None:
            continue
        for _ in range(3):
            r = render(f, chr(c), int(SIZE * rng.uniform(0.9, 1.1)), int(rng.integers(-2, 3)), int(rng.integers(-2, 3)))
            if r is not None:
                train_x.append(r); train_y.append(y)
    for f, r in te:
        r2 = render(f, chr(c), int(SIZE * rng.uniform(0.95, 1.05)), int(rng.integers(-1, 2)), int(rng.integers(-1, 2)))
        test_x.append(r2 if r2 is not None else r); test_y.append(y); test_font.append(f)
    if len(classes) % 200 == 0:
        print(len(classes), 'classes', file=sys.stderr)
print(len(classes), 'classes available', file=sys.stderr)
# Keep M classes drawn by a fixed seed.
keep = np.sort(np.random.default_rng(7).permutation(len(classes))[:M])
remap = -np.ones(len(classes), dtype=np.int64); remap[keep] = np.arange(len(keep))
train_y, test_y = remap[np.array(train_y)], remap[np.array(test_y)]
tx, ty = np.array(train_x)[train_y >= 0], train_y[train_y >= 0]
sx, sy = np.array(test_x)[test_y >= 0], test_y[test_y >= 0]
names = np.array(['U+%04X' % classes[i] for i in keep])
np.savez_compressed(OUT, train_x=tx, train_y=ty, test_x=sx, test_y=sy, classes=names)
print('train', tx.shape, 'test', sx.shape, 'classes', len(names), file=sys.stderr)
