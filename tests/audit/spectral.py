#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The spectral test worked out with exact integers and fractions, apart from
# the C code it checks (bench/core/spectral.c): LLL with Fraction arithmetic,
# then Fincke-Pohst enumeration of every vector no longer than the best, for
# the shortest nonzero s with s1 + s2 a + ... + st a^(t-1) = 0 (mod 2^w).
# Prints: preset, t, |s|^2, s, figure of merit.  tests/test_audit.c quotes it.
from fractions import Fraction as F
import math, itertools, sys

def lll(B, delta=F(3,4)):
    B=[list(map(int,b)) for b in B]
    n=len(B)
    def gs(B):
        Bs=[]; mu=[[F(0)]*n for _ in range(n)]
        for i in range(n):
            v=[F(x) for x in B[i]]
            for j in range(i):
                mu[i][j]=sum(F(B[i][k])*Bs[j][k] for k in range(len(v)))/sum(x*x for x in Bs[j])
                v=[v[k]-mu[i][j]*Bs[j][k] for k in range(len(v))]
            Bs.append(v)
        return Bs,mu
    Bs,mu=gs(B); k=1
    while k<n:
        for j in range(k-1,-1,-1):
            q=round(mu[k][j])
            if q:
                B[k]=[B[k][i]-q*B[j][i] for i in range(len(B[k]))]
                Bs,mu=gs(B)
        nk=sum(x*x for x in Bs[k]); nk1=sum(x*x for x in Bs[k-1])
        if nk >= (delta-mu[k][k-1]**2)*nk1: k+=1
        else:
            B[k],B[k-1]=B[k-1],B[k]; Bs,mu=gs(B); k=max(k-1,1)
    return B

def shortest(B):
    # enumerate via exact GS (Fincke-Pohst) on reduced basis
    n=len(B); dim=len(B[0])
    Bs=[]; mu=[[F(0)]*n for _ in range(n)]
    for i in range(n):
        v=[F(x) for x in B[i]]
        for j in range(i):
            mu[i][j]=sum(F(B[i][k])*Bs[j][k] for k in range(dim))/sum(x*x for x in Bs[j])
            v=[v[k]-mu[i][j]*Bs[j][k] for k in range(dim)]
        Bs.append(v)
    bn=[sum(x*x for x in b) for b in Bs]
    best=min(sum(x*x for x in b) for b in B); bestv=min(B,key=lambda b: sum(x*x for x in b))
    x=[0]*n
    def rec(i, partial):
        nonlocal best,bestv
        if i<0:
            if any(x):
                v=[sum(x[j]*B[j][k] for j in range(n)) for k in range(dim)]
                nn=sum(c*c for c in v)
                if 0 < nn < best:
                    best = nn
                    bestv = v
            return
        c=-sum(x[j]*mu[j][i] for j in range(i+1,n))
        r=(best-partial)/bn[i]
        if r<0: return
        rad=math.isqrt(int(r))+1
        for xi in range(math.floor(c)-rad-1, math.ceil(c)+rad+2):
            d=(xi-c)**2*bn[i]
            if partial+d<=best:
                x[i]=xi; rec(i-1, partial+d)
        x[i]=0
    rec(n-1,F(0))
    return best,bestv

GAMMA={2:F(4,3),3:2,4:4,5:8,6:F(64,3),7:64,8:256}  # gamma_t^t
def nu(a,w,t):
    m=1<<w
    B=[[m]+[0]*(t-1)]
    for j in range(1,t):
        row=[0]*t; row[0]=(-pow(a,j,m))%m; row[j]=1
        # s1 = -a^j s_j  -> vector (-a^j mod m, ..., 1 at j)
        B.append(row)
    R=lll(B)
    n2,v=shortest(R)
    # normalise sign: first nonzero positive
    for c in v:
        if c: 
            if c<0: v=[-y for y in v]
            break
    g=float(GAMMA[t])**(1.0/t)
    merit=math.sqrt(n2)/(math.sqrt(g)*m**(1.0/t))
    return n2,v,merit

if __name__=='__main__':
    for name, a, w in [('new32', 0x61C88647, 32), ('old32', 0x9e370001, 32),
                       ('new64', 0x61C8864680B583EB, 64), ('old64', 0x9e37fffffffc0001, 64),
                       ('splitmix64', 0xbf58476d1ce4e5b9, 64)]:
        for t in range(2, 9):
            n2, v, mr = nu(a, w, t)
            print(name, t, n2, v, '%.6f' % mr)
    # LLL's basis holds no shortest vector here: the enumeration must find it
    for a, t in [(0x3fd42359, 8), (0x4a0fe75d, 8), (0x585a01d, 7), (0xb2489191, 7)]:
        n2, v, mr = nu(a, 32, t)
        print(hex(a), t, n2, v, '%.6f' % mr)
