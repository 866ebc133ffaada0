; bar_ordered: an ordered critical section (bar.top.ocs / bar.bot.ocs). 64 threads in two
; warps run the section one at a time in ascending logical id. The body updates a counter
; with a plain load/add/store (no atomic): serial execution keeps it exact. At the blocking
; bottom every thread waits until all have finished, so each reads count = 64 afterwards.
.kernel bar_ordered
.launch ctas=1 threads=64
.data
count: .word 0
log:   .zero 256
after: .zero 256
; check: ordered_log
; expect: count = 64
; expect: after = 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64

.text
        mov     r1, %tid
        shl     r9, r1, 2
        mov     r20, %warpid            ; warp 1 arrives first
        xor     r20, r20, 1
        mul     r20, r20, 30
delay:  setp.gt p6, r20, 0
@!p6    bra     go
        sub     r20, r20, 1
        bra     delay
go:     bar.top.ocs 0
        ld.global r2, [count]
        shl     r3, r2, 2
        st.global [r3+log], r1          ; log[count] = tid
        add     r2, r2, 1
        st.global [count], r2
        bar.bot.ocs 0
        ld.global r4, [count]
        st.global [r9+after], r4
        exit
