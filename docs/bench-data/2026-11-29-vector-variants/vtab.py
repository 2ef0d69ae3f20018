import collections,sys
d=collections.defaultdict(list)
for l in open(sys.argv[1]):
    p,s,r,z,v=l.split(); d[(p,int(z),s)].append(float(v))
for p in ['allgatherv','gatherv','scatterv']:
    out=[]
    for z in sorted(set(k[1] for k in d if k[0]==p)):
        a=min(d[(p,z,'default')]); b=min(d[(p,z,'shm')])
        out.append(f"{z}:{b/a:.2f}")
    print(p, ' '.join(out))
