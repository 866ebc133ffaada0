; bar_nonblocking: an ordered section with a non-blocking bottom (bar.bot.ocs.nb). Each
; thread leaves the section at once while the next one enters, so a thread reads the counter
; before the later threads have run: thread t sees at most t+1, and never all 32 unless
; it is the last. Compare bar_ordered, whose blocking bottom makes everyone see the total.
.kernel bar_nonblocking
.launch ctas=1 threads=32
.data
count: .word 0
log:   .zero 128
after: .zero 128
; check: ordered_log
; check: nonblocking_after
; expect: count = 32

.text
        mov     r1, %tid
        shl     r9, r1, 2
        bar.top.ocs 2
        ld.global r2, [count]
        shl     r3, r2, 2
        st.global [r3+log], r1
        add     r2, r2, 1
        st.global [count], r2
        bar.bot.ocs.nb 2
        ld.global r4, [count]
        st.global [r9+after], r4
        exit
