import re,collections,statistics,sys
d=collections.defaultdict(list); v=None; coll=None; vs=[]
for line in open(sys.argv[1]):
    if line.startswith('## '):
        v=line.split()[1]
        if v not in vs: vs.append(v)
        continue
    m=re.match(r'# (MPI_\w+) latency',line)
    if m: coll=m.group(1); continue
    if line[0].isdigit():
        f=line.split(); d[(coll,int(f[0]),v)].append(float(f[1]))
keys=sorted(set((c,s) for c,s,_ in d))
for c,s in keys:
    out=f"{c:15s} {s:6d}"
    for v in vs:
        x=d[(c,s,v)]; out+=f"  {v} med {statistics.median(x):.3f} [{min(x):.2f}-{max(x):.2f}]"
    print(out)
