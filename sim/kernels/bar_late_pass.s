; bar_late_pass: late arrivals pass an impatient simple barrier (.pass, seed 000's
; invalidation). bar.sync.imp.pass 1, 96, 0, 50: warp 0 arrives at once and is released by
; the timeout; warps 1 and 2 arrive later, after the first portion, and continue without
; waiting (waited = 0). With .join they would wait for another portion.
.kernel bar_late_pass
.launch ctas=1 threads=96
.data
waited: .zero 384
; expect: waited = 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
; policies: lrr

.text
        mov     r1, %tid
        shl     r9, r1, 2
        mov     r2, 1
        mov     r20, %warpid
        mul     r20, r20, 200
delay:  setp.gt p6, r20, 0
@!p6    bra     go
        sub     r20, r20, 1
        bra     delay
go:     mov     r5, %clock
        bar.sync.imp.pass 1, 96, 0, 50
        mov     r6, %clock
        sub     r6, r6, r5
        setp.geu p0, r6, 40
        selp    r7, r2, r0, p0
        st.global [r9+waited], r7
        exit
