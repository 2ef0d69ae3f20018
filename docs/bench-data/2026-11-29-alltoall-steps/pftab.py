import re,sys,collections
d=collections.defaultdict(lambda: collections.defaultdict(list)); impl=coll=None
for line in open(sys.argv[1]):
    m=re.match(r"## (\S+) round",line)
    if m: impl=m.group(1); continue
    m=re.match(r"# MPI_(\S+) latency",line)
    if m: coll=m.group(1); continue
    f=line.split()
    if len(f)>=2 and f[0].isdigit(): d[(coll,int(f[0]))][impl].append(float(f[1]))
for k in d:
    print(k[0],k[1]," | ".join(f"{i}: "+" ".join(f"{t:.2f}" for t in v) for i,v in d[k].items()))
