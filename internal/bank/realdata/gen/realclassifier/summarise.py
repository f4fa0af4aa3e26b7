"""Summarise runcli.py's results.tsv: per classifier, form and k1, how often
the 80% interval at k2 = M held the truth, its median width, the mean absolute
error of the estimate at M, and the mean RMSE of the estimate's curve over
k = 2..M; then each method's mean absolute error at M on the first form of
each classifier (logits or distances).

usage: python3 summarise.py results.tsv
"""
import collections, csv, statistics as st, sys

rows = list(csv.DictReader(open(sys.argv[1]), delimiter='\t'))
g = collections.defaultdict(list)
for r in rows:
    g[(r['classifier'], r['form'], int(r['k1']))].append(r)
print('classifier\tform\tk1\tpilots\tcovered\tmedian width\tmean |error| at M\tmean RMSE k=2..M')
for (c, f, k1), rs in g.items():
    ok = [r for r in rs if r['estimate']]
    print(f"{c}\t{f}\t{k1}\t{len(rs)}\t{sum(int(r['covered']) for r in ok)}/{len(ok)}\t{st.median(float(r['width']) for r in ok):.3f}\t"
          f"{st.mean(abs(float(r['error'])) for r in ok):.3f}\t{st.mean(float(r['rmse']) for r in ok) if ok[0]['rmse'] else float('nan'):.4f}")
print()
print('classifier\tk1\t' + '\t'.join(['estimate', 'plugin', 'kde', 'pooled', 'tail', 'regression', 'cleanex']) + '\t(mean |prediction - truth| at M)')
first = {}
for r in rows:
    first.setdefault(r['classifier'], r['form'])
for c, f in first.items():
    for k1 in sorted({int(r['k1']) for r in rows}):
        rs = [r for r in rows if r['classifier'] == c and r['form'] == f and int(r['k1']) == k1]
        cells = [st.mean(abs(float(r['estimate']) - float(r['truth'])) for r in rs)]
        for m in ('plugin', 'kde', 'pooled', 'tail', 'regression', 'cleanex'):
            cells.append(st.mean(abs(float(r[m]) - float(r['truth'])) for r in rs))
        print(f'{c} ({f})\t{k1}\t' + '\t'.join(f'{v:.3f}' for v in cells))
