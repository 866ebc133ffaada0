; bar_late_join: late arrivals join a running critical-section portion (seed 000's rescan).
; bar.top.ocs.imp 3, 64, 32, 0: warp 1 (threads 32..63) arrives first and its 32 threads
; start a portion (MIN 32). Warp 0 arrives while the section is running and joins it: its
; threads are served after the ones above them, out of logical order (log: 32..63, 0..31).
.kernel bar_late_join
.launch ctas=1 threads=64
.data
count: .word 0
log:   .zero 256
; check: permutation_log
; expect: count = 64
; expect: log = 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
; policies: lrr

.text
        mov     r1, %tid
        mov     r20, %warpid            ; warp 0 waits 60 iterations
        xor     r20, r20, 1
        mul     r20, r20, 60
delay:  setp.gt p6, r20, 0
@!p6    bra     go
        sub     r20, r20, 1
        bra     delay
go:     bar.top.ocs.imp 3, 64, 32, 0
        ld.global r2, [count]
        shl     r3, r2, 2
        st.global [r3+log], r1
        add     r2, r2, 1
        st.global [count], r2
        bar.bot.ocs 3
        exit
