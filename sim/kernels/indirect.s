; indirect: brx through a jump table (one group per case, reconverging at a sync), then jmx
; to per-thread targets without reconvergence bookkeeping, each path exiting.
; out[t] = case(t % 4) result; path[t] = which jmx target ran.
.kernel indirect
.launch ctas=1 threads=32
.data
table: .word case0, case1, case2, case3
out:   .zero 128
path:  .zero 128
; expect: out = 100 1 9 2 100 25 13 6 100 81 17 10 100 169 21 14 100 289 25 18 100 441 29 22 100 625 33 26 100 841 37 30
; expect: path = 2 1 2 1 2 1 2 1 2 1 2 1 2 1 2 1 2 1 2 1 2 1 2 1 2 1 2 1 2 1 2 1

.text
        mov     r1, %tid
        shl     r9, r1, 2
        and     r2, r1, 3
        shl     r2, r2, 2
        ld.global r3, [r2+table]        ; code label = instruction index
        ssy     merged
        brx     r3
case0:  mov     r4, 100
        sync    merged
case1:  mul     r4, r1, r1
        sync    merged
case2:  add     r4, r1, 7
        sync    merged
case3:  sub     r4, r1, 1
        sync    merged
merged: st.global [r9+out], r4
        ; jmx: even threads to even_path, odd threads to odd_path
        and     r5, r1, 1
        mov     r6, odd_path
        mov     r7, even_path
        setp.eq p0, r5, 1
        selp    r8, r6, r7, p0
        jmx     r8
even_path:
        mov     r10, 2
        st.global [r9+path], r10
        exit
odd_path:
        mov     r10, 1
        st.global [r9+path], r10
        exit
