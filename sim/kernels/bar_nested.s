; bar_nested: a critical section nested in another (seed 000 [0102]: every section that holds
; an execution slot is in service). Two CTAs of 64 threads run ordered section 0 one thread at
; a time in ascending logical id, the two CTAs' sections at once; inside it each thread runs
; ordered section 1 with COUNT 1 (a portion of its own), which takes a second slot while the
; outer one keeps its slot and its thread. The outer body logs the thread order per CTA; the
; inner one counts the threads of both CTAs with an atomic (the two CTAs' inner sections are
; different barrier instances and may run at once).
.kernel bar_nested
.launch ctas=2 threads=64
.data
count: .zero 8
inner: .word 0
log:   .zero 512
; expect: count = 64 64
; expect: inner = 128
; expect: log = 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63

.text
        mov     r1, %tid
        mov     r5, %ctaid
        shl     r6, r5, 2               ; this CTA's counter
        shl     r7, r5, 8               ; this CTA's 64 log words
        mov     r8, 1
        bar.top.ocs 0
        ld.global r2, [r6+count]
        shl     r3, r2, 2
        add     r3, r3, r7
        st.global [r3+log], r1          ; log[cta][count] = tid
        add     r2, r2, 1
        st.global [r6+count], r2
        bar.top.ocs 1, 1                ; nested: served while section 0 holds this thread
        atom.global.add r4, [inner], r8
        bar.bot.ocs 1
        bar.bot.ocs 0
        exit
