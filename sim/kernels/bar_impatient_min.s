; bar_impatient_min: an impatient barrier that starts once MIN participants have arrived.
; bar.sync.imp 1, 128, 64, 0: COUNT 128 (4 warps), MIN 64, no timeout. Warp w arrives after
; a delay of 200*w iterations and counts itself in first. The first portion starts when warps
; 0 and 1 are there (they read 64 arrivals); warps 2 and 3 form the second portion, which
; starts when the 128th participant arrives (they read 128).
.kernel bar_impatient_min
.launch ctas=1 threads=128
.data
arrived: .word 0
seen:    .zero 512
; expect: seen = 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128 128
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
go:     atom.global.add r3, [arrived], r2
        bar.sync.imp 1, 128, 64, 0
        ld.global r4, [arrived]
        st.global [r9+seen], r4
        exit
