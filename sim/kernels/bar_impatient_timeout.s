; bar_impatient_timeout: an impatient barrier that starts when TIMEOUT cycles have passed
; since the first participant arrived. bar.sync.imp 1, 64, 0, 50: warp 0 arrives at once,
; warp 1 after a long delay. Warp 0 is released by the timeout (it reads 32 arrivals and
; waited at least 50 cycles); warp 1 completes the instance with COUNT 64 (reads 64).
.kernel bar_impatient_timeout
.launch ctas=1 threads=64
.data
arrived: .word 0
seen:    .zero 256
waited:  .zero 256
; expect: seen = 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64
; expect: waited = 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
; policies: lrr

.text
        mov     r1, %tid
        shl     r9, r1, 2
        mov     r2, 1
        mov     r20, %warpid
        mul     r20, r20, 300
delay:  setp.gt p6, r20, 0
@!p6    bra     go
        sub     r20, r20, 1
        bra     delay
go:     atom.global.add r3, [arrived], r2
        mov     r5, %clock
        bar.sync.imp 1, 64, 0, 50
        mov     r6, %clock
        ld.global r4, [arrived]
        st.global [r9+seen], r4
        sub     r6, r6, r5
        setp.geu p0, r6, 50             ; waited for the timeout
        selp    r7, r2, r0, p0
        st.global [r9+waited], r7
        exit
