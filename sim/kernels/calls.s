; calls: nested divergence inside a called function, a call inside a divergent branch, and
; a nested call. f(x) = x odd ? 3x+1 : x/2, g(x) = f(f(x)) + 1000 (calls f twice).
; Threads with tid%4 == 0 call g, the others call f once.
.kernel calls
.launch ctas=1 threads=32
.data
out: .zero 128
; expect: out = 1000 4 1 10 1001 16 3 22 1002 28 5 34 1003 40 7 46 1004 52 9 58 1005 64 11 70 1006 76 13 82 1007 88 15 94

.text
        mov     r1, %tid
        and     r2, r1, 3
        setp.eq p0, r2, 0
        ssy     join
@p0     bra     use_g
        cal     f                       ; r1 = f(r1)
        sync    join
use_g:  cal     g
        sync    join
join:   mov     r4, %tid
        shl     r4, r4, 2
        st.global [r4+out], r1
        exit

; f: r1 = f(r1); clobbers p1, r5
f:      and     r5, r1, 1
        setp.eq p1, r5, 1
        ssy     f_join
@p1     bra     f_odd
        shr     r1, r1, 1
        sync    f_join
f_odd:  mul     r1, r1, 3
        add     r1, r1, 1
        sync    f_join
f_join: ret

; g: r1 = f(f(r1)) + 1000; saves its link register in r30
g:      mov     r30, r31
        cal     f
        cal     f
        add     r1, r1, 1000
        mov     r31, r30
        ret
