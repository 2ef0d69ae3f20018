import sys, re, collections, statistics
# vs_table.py FILE: per collective and size, Halyard's best of rounds against the best of Open MPI tuned/adapt (best of rounds)
d=collections.defaultdict(list); impl=None; coll=None
for line in open(sys.argv[1]):
    m=re.match(r"## (\S+) round", line)
    if m: impl=m.group(1); continue
    m=re.match(r"# MPI_(\S+) latency", line)
    if m: coll=m.group(1); continue
    f=line.split()
    if len(f)>=2 and f[0].isdigit(): d[(coll,int(f[0]),impl)].append(float(f[1]))
colls=[]
for k in d:
    if k[0] not in colls: colls.append(k[0])
over=[]
for c in colls:
    sizes=sorted({k[1] for k in d if k[0]==c})
    row=[]
    for s in sizes:
        h=min(d[(c,s,'halyard')]); peer=min(min(d[(c,s,'tuned')]), min(d[(c,s,'adapt')]))
        r=h/peer; row.append(f"{s}:{r:.2f}")
        if r>1.0: over.append(f"{c} {s}: {h:.2f} / {peer:.2f} us = {r:.2f}")
    print(c, " ".join(row))
print("above 1.0:"); print("\n".join(over))
