; bar_reset: a hung barrier released by bar.reset. Warp 0 sleeps at bar.sync 2 with COUNT 64,
; but warp 1 never arrives: after a delay it resets barrier 2, and warp 0 continues after
; its barrier instruction. Then id 2 is idle again and serves a normal barrier of both warps.
.kernel bar_reset
.launch ctas=1 threads=64
.data
resumed: .word 0
done:    .word 0
; expect: resumed = 32
; expect: done = 64
; policies: lrr

.text
        mov     r1, %tid
        mov     r2, 1
        mov     r3, %warpid
        setp.eq p0, r3, 1
@p0     bra     resetter
        bar.sync 2, 64                  ; hangs: only 32 threads ever arrive here
        atom.global.add r4, [resumed], r2
        bra     meet
resetter:
        mov     r20, 100
delay:  sub     r20, r20, 1
        setp.gt p6, r20, 0
@p6     bra     delay
        bar.reset 2
meet:   bar.sync 2
        atom.global.add r4, [done], r2
        exit
