"""Set what the page showed (TestRealPilots' JSON lines) beside the command
line's answer (runcli.py's results.tsv) for the same files.

usage: python3 compare.py page.jsonl results.tsv
"""
import csv, json, sys

cli = {r['file']: r for r in csv.DictReader(open(sys.argv[2]), delimiter='\t')}
print('file\tpage estimate [lo, hi]\tCLI estimate [lo, hi]\tmax |page - CLI| (estimate, bounds, methods)')
for line in open(sys.argv[1]):
    p = json.loads(line)
    c = cli[p['file']]
    d = [abs(p['estimate'] - float(c['estimate'])), abs(p['lo'] - float(c['lo'])), abs(p['hi'] - float(c['hi']))]
    for m in ('plugin', 'kde', 'pooled', 'tail', 'regression', 'cleanex'):
        if m in p['methods'] and c[m]:
            d.append(abs(p['methods'][m] - float(c[m])))
    print(f"{p['file']}\t{p['estimate']:.4f} [{p['lo']:.4f}, {p['hi']:.4f}]\t{float(c['estimate']):.4f} [{float(c['lo']):.4f}, {float(c['hi']):.4f}]\t{max(d):.1e}")
