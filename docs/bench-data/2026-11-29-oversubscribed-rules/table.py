import sys, re, collections
best = collections.defaultdict(dict)
impl = None
for line in open(sys.argv[1]):
    m = re.match(r'## (\S+) round', line)
    if m: impl = m.group(1); continue
    p = line.split()
    if len(p) >= 2 and re.match(r'^\d', p[0]):
        best[int(p[0])].setdefault(impl, []).append(float(p[1]))
impls = []
for d in best.values():
    for k in d:
        if k not in impls: impls.append(k)
print('size'.rjust(9), *[i[:16].rjust(16) for i in impls])
for size in sorted(best):
    d = best[size]
    vals = [sorted(d[i])[len(d[i])//2] if i in d else float('nan') for i in impls]
    print(str(size).rjust(9), *[f'{v:16.2f}' for v in vals])
