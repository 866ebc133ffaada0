; yield_forms: `yield`, `yield.4` (every 4th execution per warp) and `yield.p` (probability
; 1/16 from the LFSR seeded by --seed) on loop back-edges of divergent loops. Yielding
; reorders the paths but never changes the results; in stack mode yield does nothing.
; A yield inside a loop lets the warp pop the loop's BRK token while some threads are still
; iterating (those that left first continue after the loop), so the break names its label:
; threads that find no BRK token covering them branch there (seed 002's fallback) instead of
; waiting for a token that is gone. Without the labels the model reports them stranded.
; out[t] = sum_{i<n} i with n = t % 8 + 8, plus 3 * (t % 5) from the second loop.
.kernel yield_forms
.launch ctas=1 threads=64
.data
out: .zero 256
; expect: out = 28 39 51 64 78 78 94 111 37 48 45 58 72 87 103 105 31 42 54 67 66 81 97 114 40 36 48 61 75 90 91 108 34 45 57 55 69 84 100 117 28 39 51 64 78 78 94 111 37 48 45 58 72 87 103 105 31 42 54 67 66 81 97 114
; expect deque: stat yield_tokens >= 10
; expect stack: stat yield_tokens = 0

.text
        mov     r1, %tid
        and     r2, r1, 7
        add     r2, r2, 8               ; n
        mov     r3, 0                   ; i
        mov     r4, 0                   ; sum
        pbrk    loop1_done
loop1:  setp.ge p0, r3, r2
@p0     brk     loop1_done              ; with a label: see below
        add     r4, r4, r3
        add     r3, r3, 1
        yield.4
        bra     loop1
loop1_done:
        ; second loop: t % 5 iterations adding 3, yield.p on the back-edge
        mov     r5, r1
mod5:   setp.lt p1, r5, 5
@p1     bra     mod5_done
        sub     r5, r5, 5
        yield
        bra     mod5
mod5_done:
        pbrk    loop2_done
loop2:  setp.eq p2, r5, 0
@p2     brk     loop2_done
        add     r4, r4, 3
        sub     r5, r5, 1
        yield.p
        bra     loop2
loop2_done:
        shl     r6, r1, 2
        st.global [r6+out], r4
        exit
